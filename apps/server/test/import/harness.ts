import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type CliHooks, runCli } from '../../src/import/cli.js';
import type { DialectName } from '../../src/platform/db/index.js';
import { availableDialects, type TestDatabase } from '../databases.js';

/** The secret startTestApp uses: imported keys are sealed under it, so the app can open them. */
export const TEST_SECRET = 'test-session-secret-0123456789';

/** The server's environment pointed at `target`, as an operator would set it before `npm run import`. */
export function environmentFor(target: TestDatabase): Record<string, string> {
  return {
    SQLITE_PATH: target.target.sqlitePath || join(mkdtempSync(join(tmpdir(), 'one-hub-import-')), 'unused.db'),
    SQL_DSN: target.target.sqlDsn ?? '',
    SESSION_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
  };
}

/** `--from` for a test database: its file path, or its DSN. */
export function sourceArgument(source: TestDatabase): string {
  return source.target.sqlDsn ?? source.target.sqlitePath;
}

class Capture extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run import -- <args>` in-process against `target`, capturing what it prints. */
export async function runImportCli(args: string[], target: TestDatabase, hooks: CliHooks = {}): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(
    args,
    environmentFor(target),
    { stdout, stderr: stderr as unknown as NodeJS.WriteStream },
    hooks,
  );
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Source → target pairs: each available dialect onto itself, plus SQLite onto each other one. */
export function dialectPairs(): Array<[DialectName, DialectName]> {
  const pairs: Array<[DialectName, DialectName]> = availableDialects.map((dialect) => [dialect, dialect]);
  for (const dialect of availableDialects) if (dialect !== 'sqlite') pairs.push(['sqlite', dialect]);
  if (availableDialects.includes('mysql') && availableDialects.includes('postgres')) pairs.push(['postgres', 'mysql']);
  return pairs;
}

/** The count line of a table in the report: [read, written, skipped]. */
export function reportCounts(report: string, table: string): number[] {
  const line = report.split('\n').find((text) => text.startsWith(`${table} `));
  if (!line) throw new Error(`no line for ${table} in the report:\n${report}`);
  return line.trim().split(/\s+/).slice(-3).map(Number);
}
