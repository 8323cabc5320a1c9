import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The server as `npm start` runs it, from its sources. */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** Output kept per process: enough for the last lines of a failure, bounded however long it runs. */
const OUTPUT_LIMIT = 64 * 1024;

// Servers still running when the test process ends (a timed-out test, a crash of the runner) go
// with it, rather than living on as orphans holding a port and a database.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** One server in a child process of its own (a real `node`), listening on a loopback port. */
export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, known once `startServerProcess` has returned. */
  url: string;
  /** The last part of what it printed, for failure messages. */
  output(): string;
  /** Settles when the process has exited, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** SIGKILL, as a crash, an OOM kill or `docker kill` would; settles when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the graceful stop; settles when the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts the server with `env` on a port the system picks, and settles once it has said where it
 * listens and answers `/api/status`: start-up work done before listening (migrations, replays) is
 * then over. Rejects with its output when it exits first or is not ready within `timeoutMs`.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const gone = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const server: ServerProcess = {
    child,
    url: '',
    output: () => output,
    exited,
    kill: () => gone('SIGKILL'),
    stop: () => gone('SIGTERM'),
  };
  try {
    server.url = await listeningUrl(server, timeoutMs);
    await untilStatusAnswers(server, timeoutMs);
    return server;
  } catch (error) {
    await server.kill();
    throw error;
  }
}

/** Waits for the start-up line `One Hub is listening on http://localhost:<port>/`. */
function listeningUrl(server: ServerProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`the server did not listen within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const port = /is listening on http:\/\/localhost:(\d+)\//.exec(server.output())?.[1];
      if (port) finish(undefined, `http://127.0.0.1:${port}`);
    };
    const stopped = (code: number | null) => finish(new Error(`the server stopped (exit code ${code})`));
    const finish = (error?: Error, url?: string) => {
      clearTimeout(timer);
      server.child.stdout?.off('data', check);
      server.child.off('exit', stopped);
      if (url) resolve(url);
      else reject(new Error(`${error?.message}:\n${server.output()}`));
    };
    server.child.stdout?.on('data', check);
    server.child.once('exit', stopped);
    check();
  });
}

async function untilStatusAnswers(server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${server.url}/api/status`, { signal: AbortSignal.timeout(5000) })
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return;
    if (server.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the server at ${server.url} never answered /api/status (last ${status}):\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
