// `npm run bench:redis`: how many Redis commands One Hub sends per relay request (issue 38's
// measure). A private redis-server on a free loopback port serves one One Hub process (SQLite and
// REDIS_CONN_STRING), so nothing else's commands are counted. Redis's own `INFO commandstats` is
// read after each steady run; the background rate (timers, heartbeats, lease renewals) measured
// while the process sits idle for as long is subtracted.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { everythingKey } from './everything.js';
import { closeClient, latencies, type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN, startChild, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const port = 40_000 + Math.floor(Math.random() * 10_000);

/** `INFO commandstats` as calls per command name. */
async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match?.[1] && match[2]) calls.set(match[1], Number(match[2]));
  }
  return calls;
}

/** Commands counted while `work` runs (CONFIG RESETSTAT first; those two calls are not counted). */
async function countWhile(redis: Redis, work: () => Promise<void>): Promise<Map<string, number>> {
  await redis.config('RESETSTAT');
  await work();
  const calls = await commandCalls(redis);
  calls.delete('config');
  calls.delete('info');
  return calls;
}

const redisServer = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  { stdio: 'ignore' },
);
const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
for (let attempt = 0; ; attempt++) {
  try {
    await redis.connect();
    break;
  } catch (error) {
    if (attempt >= 50) throw error;
    await sleep(100);
  }
}
const oneHub = await startOneHub(root, { REDIS_CONN_STRING: `redis://127.0.0.1:${port}` });
try {
  const plainKey = await prepareOneHub(oneHub.url, BENCH_ROOT_TOKEN, upstream.url);
  const allKey = await everythingKey(oneHub.url, upstream.url);
  const targets: Target[] = [
    {
      name: 'plain key (unlimited, default group)',
      base: oneHub.url,
      headers: { authorization: `Bearer ${plainKey}` },
      child: oneHub,
    },
    {
      name: 'key with balance, RPM, TPM, 3 budgets; latency routing over 2 channels',
      base: oneHub.url,
      headers: { authorization: `Bearer ${allKey}` },
      child: oneHub,
    },
  ];
  for (const target of targets) await latencies(target, 200);
  await sleep(1000);
  const idleStarted = performance.now();
  const idle = await countWhile(redis, () => sleep(seconds * 1000));
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  console.log(`idle: ${[...idle.values()].reduce((a, b) => a + b, 0)} commands in ${idleSeconds.toFixed(1)} s`);
  console.log(
    '\n| Key | Requests | Errors | Redis commands per request | By command (per request) |\n|---|---:|---:|---:|---|',
  );
  for (const target of targets) {
    let requests = 0;
    let errors = 0;
    let runSeconds = 0;
    const calls = await countWhile(redis, async () => {
      const started = performance.now();
      const result = await throughput(target, 16, seconds);
      runSeconds = (performance.now() - started) / 1000;
      requests = result.rps * seconds;
      errors = result.errors;
    });
    const perRequest = [...calls]
      .map(([name, count]) => [name, (count - ((idle.get(name) ?? 0) * runSeconds) / idleSeconds) / requests] as const)
      .filter(([, value]) => value > 0.005)
      .sort((left, right) => right[1] - left[1]);
    const total = perRequest.reduce((sum, [, value]) => sum + value, 0);
    const detail = perRequest.map(([name, value]) => `${name} ${value.toFixed(2)}`).join(', ');
    console.log(`| ${target.name} | ${requests.toFixed(0)} | ${errors} | ${total.toFixed(1)} | ${detail} |`);
  }
} finally {
  await oneHub.stop();
  await upstream.stop();
  redis.disconnect();
  redisServer.kill('SIGTERM');
  await once(redisServer, 'exit');
  await closeClient();
}
