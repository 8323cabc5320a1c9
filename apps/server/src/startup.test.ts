import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = mkdtempSync(join(tmpdir(), 'one-hub-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Starts the server from source with `env` and collects what it prints until it exits. */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SQLITE_PATH: join(scratch, 'one-hub.db'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output: output.trim() })));
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

const pgUrl = process.env.TEST_PG_URL;
const mysqlUrl = process.env.TEST_MYSQL_URL;
const missing = (url: string) => Object.assign(new URL(url), { pathname: '/onehub_no_such_database' }).toString();

describe('start-up failures an operator fixes in the environment', () => {
  it('names REDIS_CONN_STRING in one line when Redis cannot be reached, with no stack', async () => {
    const port = await closedPort();
    const result = await start({ REDIS_CONN_STRING: `redis://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.output).toBe(
      `One Hub cannot start: REDIS_CONN_STRING: cannot reach Redis at 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('names SQLITE_PATH when the data folder cannot be made', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const result = await start({ SQLITE_PATH: join(file, 'one-hub.db') });
    expect(result.code).toBe(1);
    expect(result.output.split('\n')).toHaveLength(1);
    expect(result.output).toMatch(/^SQLITE_PATH: cannot keep the session secret in the data folder .*a-file: EEXIST/);
  });

  it.runIf(pgUrl)('names SQL_DSN and says to create a PostgreSQL database that does not exist', async () => {
    const result = await start({ SQL_DSN: missing(pgUrl ?? '') });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /^One Hub cannot start: SQL_DSN: cannot use the database postgres:.*: database "onehub_no_such_database" does not exist \(create it first/,
    );
    expect(result.output.split('\n')).toHaveLength(1);
  });

  it.runIf(mysqlUrl)('names SQL_DSN for a MySQL database that does not exist', async () => {
    const result = await start({ SQL_DSN: missing(mysqlUrl ?? '') });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^One Hub cannot start: SQL_DSN: .*Unknown database 'onehub_no_such_database'/);
    expect(result.output.split('\n')).toHaveLength(1);
  });
});

/** Starts the server, waits for its listening line, stops it; everything it printed. */
async function listeningOutput(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SQLITE_PATH: join(scratch, 'run', 'one-hub.db'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('is listening on')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => resolve());
  });
  // Only its output matters here; a graceful shutdown is tested elsewhere.
  child.kill('SIGKILL');
  await exited;
  return output;
}

describe('what the terminal shows', () => {
  it('prints one readable line per event with LOG_FORMAT=pretty, JSON lines with json; never "notifications on" without SMTP', async () => {
    const base = { INITIAL_ROOT_PASSWORD: 'startup-root-password', LOG_LEVEL: 'info' };
    const readable = await listeningOutput({ ...base, LOG_FORMAT: 'pretty' });
    const line = readable.split('\n').find((entry) => entry.includes('is listening on')) ?? '';
    expect(line).toMatch(
      /^\[\d\d:\d\d:\d\d(\.\d+)?\] INFO: One Hub is listening on http:\/\/localhost:[1-9]\d*\/ \(database sqlite:.*; no Redis\)/,
    );
    expect(readable).not.toContain('notifications on');

    const json = await listeningOutput({ ...base, LOG_FORMAT: 'json' });
    const record = JSON.parse(json.split('\n').find((entry) => entry.includes('is listening on')) ?? '{}');
    expect(record).toMatchObject({ level: 30, msg: expect.stringContaining('One Hub is listening on') });
    expect(json).not.toContain('notifications on');
  });
});
