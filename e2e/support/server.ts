import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));

export interface RunningServer {
  origin: string;
  /** Where its SQLite file and session secret live, for command-line tools run beside it. */
  dataDirectory: string;
  /** What the server wrote to standard output so far (the last 64 KiB), e.g. the first-run banner. */
  output(): string;
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 64 * 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server as a real process on a fresh SQLite file and waits until it answers. A
 * variable given as undefined is left unset, so the server uses its own default.
 */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-e2e-'));
  // A test that restarts the server (an update) passes the first one's PORT again.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDirectory, 'one-hub.db'),
      LOG_LEVEL: 'warn',
      // Root starts empty, so the balances the tests set are the ones they see (first-run.e2e.ts sets it).
      INITIAL_ROOT_QUOTA: '0',
      // A browser test loads the console in a fresh context per test, far more than a person does
      // from one address; the per-address limits have their own tests (http/rate-limit*.test.ts and
      // console-loads.e2e.ts, which leaves these unset).
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    const ready = await fetch(`${origin}/api/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    dataDirectory,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
