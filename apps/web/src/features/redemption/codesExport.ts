import { csvDocument } from '@one-hub/contracts';
import { fileStamp } from '../../lib/download.js';

/** Texts for handing out freshly created codes: the clipboard, a .txt file or a .csv file. */

export interface CreatedBatch {
  keys: string[];
  name: string;
  /** Raw quota of each code. */
  quota: number;
}

/** One code per line, nothing else: what "copy all" puts on the clipboard. */
export function codesAsLines(keys: readonly string[]): string {
  return keys.join('\n');
}

export function codesAsText(keys: readonly string[]): string {
  return `${codesAsLines(keys)}\n`;
}

/** `code,name,quota` with a header line; CRLF line ends, as spreadsheets expect. */
export function codesAsCsv(batch: CreatedBatch): string {
  const lines = [['code', 'name', 'quota'], ...batch.keys.map((key) => [key, batch.name, batch.quota])];
  return csvDocument(lines);
}

/** `redemption-codes-<name>-YYYYMMDD-HHmmss.<extension>`, keeping only file-name-safe characters of the name. */
export function exportFileName(name: string, extension: 'txt' | 'csv', at: Date): string {
  const safe = name
    .trim()
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20);
  return `redemption-codes-${safe ? `${safe}-` : ''}${fileStamp(at)}.${extension}`;
}
