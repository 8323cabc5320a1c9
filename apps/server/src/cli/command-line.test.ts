// `npm run reset-root-password` as an operator types it, in a child process: `--help` and a wrong
// option print the usage and change nothing (before, `-- --help` reset the password). Both ways in
// are run: the npm script (scripts/reset-root-password.mjs, which answers before any build) and
// the built tool itself (its source here), which Docker and systemd users run directly.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseWithRoot } from '../../test/root-account.js';
import { openDatabase } from '../platform/db/index.js';
import { verifyPassword } from '../platform/password.js';

const scratch = mkdtempSync(join(tmpdir(), 'one-hub-cli-flags-'));
const environment = {
  SQLITE_PATH: join(scratch, 'one-hub.db'),
  SESSION_SECRET: 'cli-flags-test-secret-0123456789',
};
const entries = {
  'npm script': [fileURLToPath(new URL('../../../../scripts/reset-root-password.mjs', import.meta.url))],
  'built tool': ['--import', 'tsx', fileURLToPath(new URL('./reset-root-password-main.ts', import.meta.url))],
};
const tool = entries['built tool'];

function runCli(args: string[], entry = tool): Promise<{ code: number | null; out: string; err: string }> {
  const { SQL_DSN: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [...entry, ...args], {
    env: { ...inherited, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = { code: null as number | null, out: '', err: '' };
  child.stdout.on('data', (chunk) => (result.out += chunk));
  child.stderr.on('data', (chunk) => (result.err += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...result, code })));
}

async function rootPasswordHash(): Promise<{ password: string; generation: number }> {
  const handle = openDatabase({ sqlitePath: environment.SQLITE_PATH });
  try {
    const root = await handle.db
      .selectFrom('users')
      .select(['password', 'session_generation'])
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow();
    return { password: root.password, generation: Number(root.session_generation) };
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  const { handle } = await databaseWithRoot({ sqlitePath: environment.SQLITE_PATH }, environment.SESSION_SECRET, {
    password: 'the-root-password',
  });
  await handle.close();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// Each case is a Node process compiling TypeScript on start: several seconds on a busy machine.
const SLOW = 120_000;

describe('npm run reset-root-password, its command line', () => {
  it(
    '--help and -h print the usage, exit 0 and leave the root password as it was',
    async () => {
      const before = await rootPasswordHash();
      for (const [flag, entry] of [
        ['--help', entries['npm script']],
        ['-h', entries['npm script']],
        ['--help', entries['built tool']],
      ] as const) {
        const help = await runCli([flag], [...entry]);
        expect(help.code, help.err).toBe(0);
        expect(help.out).toContain('Usage: npm run reset-root-password [-- --username NAME]');
        expect(help.out).not.toContain('password:');
      }
      const after = await rootPasswordHash();
      expect(after).toEqual(before);
      expect(await verifyPassword('the-root-password', after.password)).toBe(true);
    },
    SLOW,
  );

  it(
    'an unknown option, a stray word or a missing value: exit 2 with the usage, nothing changed',
    async () => {
      const before = await rootPasswordHash();
      const cases: Array<[string[], string]> = [
        [['--frobnicate'], 'error: unknown option --frobnicate'],
        [['--user', 'root'], 'error: unknown option --user'],
        [['root'], 'error: unexpected argument root'],
        [['--username'], 'error: --username needs a value'],
        [['--help', '--frobnicate'], 'error: unknown option --frobnicate'],
      ];
      for (const [args, error] of cases) {
        for (const entry of Object.values(entries)) {
          const refused = await runCli(args, entry);
          expect(refused.code, `${entry.at(-1)} ${args.join(' ')}`).toBe(2);
          expect(refused.out).toBe('');
          expect(refused.err).toContain(error);
          expect(refused.err).toContain('Usage: npm run reset-root-password');
        }
      }
      expect(await rootPasswordHash()).toEqual(before);
      expect(await verifyPassword('the-root-password', (await rootPasswordHash()).password)).toBe(true);

      // The same command with a right option still does its work.
      const reset = await runCli(['--username', 'root']);
      expect(reset.code, reset.err).toBe(0);
      expect(await verifyPassword('the-root-password', (await rootPasswordHash()).password)).toBe(false);
    },
    SLOW,
  );
});
