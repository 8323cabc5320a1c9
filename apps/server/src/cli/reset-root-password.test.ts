import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase } from '../../test/databases.js';
import { databaseWithRoot } from '../../test/root-account.js';
import { verifyPassword } from '../platform/password.js';
import { runResetRootPassword } from './reset-root-password.js';

const scratch = mkdtempSync(join(tmpdir(), 'one-hub-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(args: string[], environment: Record<string, string | undefined>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: '', err: '' };
  stdout.on('data', (chunk) => (chunks.out += chunk));
  stderr.on('data', (chunk) => (chunks.err += chunk));
  const code = await runResetRootPassword(args, environment, { stdout, stderr });
  return { code, ...chunks };
}

describe.each(availableDialects)('npm run reset-root-password on %s', (dialect) => {
  it('sets and prints a new root password, ends its sessions, revokes its access token and asks for a change; refuses others by name', async () => {
    const database = await createTestDatabase(dialect);
    // The CLI reads the same variables as the server; the data folder stays in the scratch space.
    const environment = {
      SQLITE_PATH: database.target.sqlitePath || join(scratch, dialect, 'one-hub.db'),
      SQL_DSN: database.target.sqlDsn,
      SESSION_SECRET: 'cli-test-secret-0123456789',
    };
    try {
      expect((await run([], environment)).err).toMatch(/no root user yet: start the server once/);

      const { handle, services } = await databaseWithRoot(database.target, environment.SESSION_SECRET, {
        password: 'old-root-password',
        accessToken: 'cli-root-access-token-0123456789',
      });
      await services.users.createAccount({ username: 'alice', password: 'alice-password' });
      const before = await services.userRepository.findByUsername('root');

      const reset = await run([], environment);
      expect(reset.code, reset.err).toBe(0);
      const printed = /password: (\S+)/.exec(reset.out)?.[1] ?? '';
      expect(printed).toHaveLength(16);
      expect(reset.out).toContain('username: root');
      const after = await services.userRepository.findByUsername('root');
      expect(await verifyPassword(printed, after?.password ?? '')).toBe(true);
      expect(await verifyPassword('old-root-password', after?.password ?? '')).toBe(false);
      expect(after?.password_change_required).toBe(1);
      expect(Number(after?.session_generation)).toBe(Number(before?.session_generation) + 1);
      // A lost password may be a stolen one: the access token goes with it (issue 29).
      expect(before?.access_token_hash).toBeTruthy();
      expect(after?.access_token_hash).toBeNull();

      const notRoot = await run(['--username', 'alice'], environment);
      expect(notRoot).toMatchObject({ code: 1, out: '' });
      expect(notRoot.err).toContain("'alice' is not a root user");
      expect((await run(['--username', 'nobody'], environment)).err).toContain("no user named 'nobody'");
      expect((await run(['--username'], environment)).code).toBe(2);
      expect((await run(['--username='], environment)).code).toBe(2);
      await handle.close();
    } finally {
      await database.drop();
    }
  });
});

describe('starting on a port that is taken', () => {
  let holder: Server | undefined;
  afterAll(() => holder?.close());

  it('exits with one line naming the port before creating anything, so no root password is lost', async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder?.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const sqlitePath = join(scratch, 'taken', 'one-hub.db');
    const main = fileURLToPath(new URL('../main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SQLITE_PATH: sqlitePath, LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output.trim()).toBe(`One Hub cannot start: port ${port} is already in use (set PORT to another port)`);
    expect(existsSync(sqlitePath)).toBe(false);
  });
});
