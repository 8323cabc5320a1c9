// Plain JavaScript shared with scripts/*.mjs, bundled into dist/import.js.
import { readCommandLine, refuse } from '../../../../scripts/command-line.mjs';
import { COMMANDS } from '../../../../scripts/commands.mjs';
import { ConfigError, loadConfig } from '../config.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../platform/db/index.js';
import type { SourceDb } from './legacy.js';
import { createProgressPrinter, endProgress, formatReport } from './report.js';
import { type ImportOptions, runImport } from './run-import.js';
import { openSourceDb, parseSourceDsn, SourceError, type SourceLocation } from './source-db.js';
import { ImportRefused } from './target-state.js';

const { options: OPTIONS, usage: USAGE } = COMMANDS.import;

export interface ImportArguments {
  from: string;
  merge: boolean;
  batch: number;
}

/** The options, read strictly (scripts/command-line.mjs); `{ exitCode }` once usage or an error is printed. */
export function parseArguments(argv: readonly string[], io: CliIo): ImportArguments | { exitCode: number } {
  const commandLine = readCommandLine(argv, OPTIONS, USAGE, io);
  if (commandLine.exitCode !== undefined) return { exitCode: commandLine.exitCode };
  const {
    from,
    merge,
    batch: batchText = '1000',
  } = commandLine.values as Record<string, string | undefined> & {
    merge?: boolean;
  };
  if (!from) return refuse('error: --from is required', USAGE, io);
  const batch = Number(batchText);
  if (!/^\d+$/.test(batchText) || batch < 1 || batch > 10_000)
    return refuse('error: --batch must be a whole number from 1 to 10000', USAGE, io);
  return { from, merge: merge === true, batch };
}

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
}

/** Overrides for tests: the hook of ImportOptions. */
export type CliHooks = Pick<ImportOptions, 'afterBatch' | 'insideBatch'>;

function sameDatabase(location: SourceLocation, target: DatabaseHandle, sqlitePath: string, sqlDsn?: string): boolean {
  if (location.dialect === 'sqlite') return target.dialect === 'sqlite' && location.target === sqlitePath;
  return location.target === sqlDsn;
}

async function importWith(
  args: ImportArguments,
  config: ReturnType<typeof loadConfig>,
  io: CliIo,
  hooks: CliHooks,
): Promise<number> {
  const location = parseSourceDsn(args.from);
  const target = openDatabase(config);
  let source: SourceDb | undefined;
  try {
    if (sameDatabase(location, target, config.sqlitePath, config.sqlDsn)) {
      throw new ImportRefused('the source is the database this server is configured with; import into another one');
    }
    await migrateToLatest(target);
    source = await openSourceDb(location);
    io.stderr.write(`Reading ${location.describe}; writing into ${target.describe}\n`);
    const outcome = await runImport({
      target,
      serverSecret: config.sessionSecret,
      source,
      sourceName: location.describe,
      merge: args.merge,
      batchSize: args.batch,
      progress: createProgressPrinter(io.stderr),
      ...hooks,
    });
    endProgress(io.stderr);
    io.stderr.write(`Source: ${outcome.product} — ${outcome.version}\n`);
    io.stdout.write(formatReport(outcome));
    return 0;
  } finally {
    await source?.close();
    await target.close();
  }
}

/** The whole command: 0 done, 2 refused (usage, unknown source, non-empty target), 1 failed. */
export async function runCli(
  argv: readonly string[],
  environment: Record<string, string | undefined>,
  io: CliIo,
  hooks: CliHooks = {},
): Promise<number> {
  try {
    const args = parseArguments(argv, io);
    if ('exitCode' in args) return args.exitCode;
    return await importWith(args, loadConfig(environment), io, hooks);
  } catch (error) {
    if (error instanceof ImportRefused || error instanceof SourceError || error instanceof ConfigError) {
      io.stderr.write(`Import refused: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(
      `Import failed: ${error instanceof Error ? error.message : String(error)}\n` +
        'Everything written so far is kept; run the same command again to continue where it stopped.\n',
    );
    return 1;
  }
}
