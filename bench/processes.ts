import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A child process of the benchmark, with its CPU time and memory read from /proc. */
export interface Child {
  process: ChildProcess;
  url: string;
  cpuMicros(): number;
  rssBytes(): number;
  peakRssBytes(): number;
  /** Starts a new peak: Linux resets VmHWM to the current RSS. */
  resetPeakRss(): void;
  stop(): Promise<void>;
}

const TICKS_PER_SECOND = 100;

/** The V8 flags of `npm start` (package.json), so the benchmark runs One Hub as users do. */
export function startFlags(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

export function cpuMicrosOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // Fields 14 and 15 of /proc/<pid>/stat (user and system time), counted after the command name.
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1_000_000;
}

function statusField(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
}

export async function startChild(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl?: string,
): Promise<Child> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let url = readyUrl ?? '';
  if (!readyUrl) {
    url = await new Promise<string>((resolve, reject) => {
      child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    });
  } else {
    let up = false;
    for (let attempt = 0; attempt < 200 && !up; attempt++) {
      up = await fetch(`${readyUrl}/api/status`).then(
        (response) => response.ok,
        () => false,
      );
      if (!up) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A server that never answered is no target: measuring against it would report nonsense.
    if (!up) {
      child.kill('SIGTERM');
      throw new Error(`${args.join(' ')} did not answer ${readyUrl}/api/status within 20 s`);
    }
  }
  const pid = child.pid ?? 0;
  return {
    process: child,
    url,
    cpuMicros: () => cpuMicrosOf(pid),
    rssBytes: () => statusField(pid, 'VmRSS'),
    peakRssBytes: () => statusField(pid, 'VmHWM'),
    resetPeakRss: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The root access token every One Hub of the benchmark starts with. */
export const BENCH_ROOT_TOKEN = 'bench-root-access-token-0123456789';

/** A One Hub process as `npm start` runs it, on a fresh SQLite file, with `environment` and `nodeFlags` added. */
export function startOneHub(
  root: string,
  environment: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<Child> {
  // Below Linux's ephemeral range (32768 up), where the load generator's own connections take
  // their ports: a port picked there can be taken by the time the child binds it.
  const port = 20_000 + Math.floor(Math.random() * 12_000);
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-bench-'));
  return startChild(
    process.execPath,
    [...startFlags(root), ...nodeFlags, join(root, 'apps/server/dist/main.js')],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDirectory, 'one-hub.db'),
      LOG_LEVEL: 'warn',
      INITIAL_ROOT_ACCESS_TOKEN: BENCH_ROOT_TOKEN,
      // The load and the slow-stream phase open more connections from one address than the default cap.
      MAX_CONNECTIONS_PER_ADDRESS: '4096',
      ...environment,
    },
    `http://127.0.0.1:${port}`,
  );
}
