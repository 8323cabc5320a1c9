// The command lines of the npm scripts (start, import, reset-root-password, backup), run as an
// operator runs them, in child processes: --help prints the usage and exits 0, a wrong option or a
// stray word exits 2 with the usage on standard error, and neither builds nor touches the data
// folder (reset-root-password against a real root account: apps/server/src/cli/command-line.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'one-hub-command-lines-'));
const running = new Set<ChildProcess>();
afterEach(() => {
  // A command that ignored --help would go on to build and serve: stop it here, not leave it behind.
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// Each case is a Node process compiling TypeScript on start: several seconds on a busy machine.
const SLOW = 120_000;

function run(command: string[], environment: Record<string, string>) {
  const { SQL_DSN: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...inherited, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const result = { code: null as number | null, out: '', err: '' };
  child.stdout?.on('data', (chunk) => (result.out += chunk));
  child.stderr?.on('data', (chunk) => (result.err += chunk));
  return new Promise<typeof result>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve({ ...result, code });
    }),
  );
}

const commands = {
  start: {
    command: [join(root, 'scripts/start.mjs')],
    usage: 'Usage: npm start',
    wrong: ['--port', '3000'],
    unknownOption: '--port',
  },
  import: {
    command: [join(root, 'scripts/import.mjs')],
    usage: 'Usage: npm run import -- --from <source>',
    wrong: ['--from', 'old.db', '--marge'],
    unknownOption: '--marge',
  },
  'reset-root-password': {
    command: [join(root, 'scripts/reset-root-password.mjs')],
    usage: 'Usage: npm run reset-root-password [-- --username NAME]',
    wrong: ['--username', 'root', '--force'],
    unknownOption: '--force',
  },
  backup: {
    command: [join(root, 'scripts/backup.mjs')],
    usage: 'Usage: npm run backup [-- --to FILE]',
    wrong: ['--into', 'x.db'],
    unknownOption: '--into',
  },
};

describe.each(Object.entries(commands))('npm run %s', (name, { command, usage, wrong, unknownOption }) => {
  const folder = join(scratch, name);
  const sqlitePath = join(folder, 'data', 'one-hub.db');

  /** The data folder: for backup a database to copy, for the others nothing yet. */
  function prepare(): void {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(join(folder, 'data'), { recursive: true });
    if (name === 'backup') new Database(sqlitePath).close();
  }
  const untouched = () => {
    const files = readdirSync(join(folder, 'data')).sort();
    expect(files).toEqual(name === 'backup' ? ['one-hub.db'] : []);
  };
  const environment = () => ({ SQLITE_PATH: sqlitePath, SESSION_SECRET: 'command-line-test-secret-0123', PORT: '0' });

  it(
    '--help and -h print the usage on standard output, exit 0 and do nothing else',
    async () => {
      prepare();
      for (const flag of ['--help', '-h']) {
        const help = await run([...command, flag], environment());
        expect(help.code, help.err).toBe(0);
        expect(help.out).toContain(usage);
        expect(help.err).toBe('');
      }
      untouched();
    },
    SLOW,
  );

  it(
    'an unknown option or a stray word: exit 2, the error and the usage on standard error, nothing done',
    async () => {
      prepare();
      const unknown = await run([...command, ...wrong], environment());
      expect(unknown.code, unknown.err).toBe(2);
      expect(unknown.err).toContain(`error: unknown option ${unknownOption}`);
      expect(unknown.err).toContain(usage);
      expect(unknown.out).toBe('');
      const stray = await run([...command, 'now'], environment());
      expect(stray.code, stray.err).toBe(2);
      expect(stray.err).toContain('error: unexpected argument now');
      expect(stray.err).toContain(usage);
      untouched();
    },
    SLOW,
  );
});
