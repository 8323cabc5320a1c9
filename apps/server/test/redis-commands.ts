import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/**
 * Counting the Redis commands One Hub sends (issue 38), for `npm run bench:redis`, `npm run
 * bench:nodes` and the four-node test: a private redis-server on a free loopback port, so no other
 * client's commands are counted, and Redis's own `INFO commandstats`.
 */
export interface PrivateRedis {
  url: string;
  /** The redis-server's process id (its CPU time is in /proc/<pid>/stat). */
  pid: number;
  client: Redis;
  stop(): Promise<void>;
}

/** Starts `redis-server` without persistence on a random loopback port and connects to it. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  const server: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const stopServer = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  };
  // A fresh client per attempt: one whose first connect failed keeps reconnecting on its own.
  for (let attempt = 0; ; attempt++) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // a refused attempt is retried below
    try {
      await client.connect();
      const stop = async () => {
        client.disconnect();
        await stopServer();
      };
      return { url: `redis://127.0.0.1:${port}`, pid: server.pid ?? 0, client, stop };
    } catch (error) {
      client.disconnect();
      if (attempt >= 50) {
        await stopServer();
        throw error;
      }
      await sleep(100);
    }
  }
}

/** `INFO commandstats` as calls per command name. */
export async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match?.[1] && match[2]) calls.set(match[1], Number(match[2]));
  }
  return calls;
}

/** Commands counted while `work` runs, and for how long it ran (CONFIG RESETSTAT first; INFO and CONFIG are not counted). */
export async function countWhile(
  redis: Redis,
  work: () => Promise<void>,
): Promise<{ calls: Map<string, number>; seconds: number }> {
  await redis.config('RESETSTAT');
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const calls = await commandCalls(redis);
  calls.delete('config');
  calls.delete('info');
  return { calls, seconds };
}

export interface PerRequest {
  /** All commands per request. */
  total: number;
  /** Per command name, per request, largest first (those under 0.005 left out). */
  byCommand: Array<[string, number]>;
}

/**
 * Commands per request of a run of `requests`: each command's count less the idle rate (`idle`,
 * counted over as long as `idleSeconds`) scaled to the run's length.
 */
export function commandsPerRequest(
  run: { calls: Map<string, number>; seconds: number },
  idle: { calls: Map<string, number>; seconds: number },
  requests: number,
): PerRequest {
  const byCommand = [...run.calls]
    .map(([name, count]) => {
      const background = ((idle.calls.get(name) ?? 0) * run.seconds) / Math.max(idle.seconds, 0.001);
      return [name, (count - background) / Math.max(requests, 1)] as [string, number];
    })
    .filter(([, value]) => value > 0.005)
    .sort((left, right) => right[1] - left[1]);
  return { total: byCommand.reduce((sum, [, value]) => sum + value, 0), byCommand };
}

/** `get 4.02, hincrby 4.02, …`, for a table cell. */
export function describeByCommand(perRequest: PerRequest): string {
  return perRequest.byCommand.map(([name, value]) => `${name} ${value.toFixed(2)}`).join(', ');
}
