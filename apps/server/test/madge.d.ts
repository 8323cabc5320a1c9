/** The part of madge's API the build-contents test uses (madge ships no types). */
declare module 'madge' {
  interface MadgeResult {
    /** Each reached file (relative to baseDir) with the files it imports. */
    obj(): Record<string, string[]>;
  }
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    /** Options per file type for the detectives, passed on to their parsers. */
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
