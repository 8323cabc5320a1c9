// Types of command-line.mjs for the server's TypeScript tools that bundle it.
import type { ParseArgsConfig } from 'node:util';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;
export type CommandLine = { values: OptionValues; exitCode?: undefined } | { exitCode: number; values?: undefined };
export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function readCommandLine(
  argv: readonly string[],
  options: OptionSpecs,
  usage: string,
  io?: CommandIo,
): CommandLine;
export function refuse(error: string, usage: string, io?: CommandIo): { exitCode: 2 };
