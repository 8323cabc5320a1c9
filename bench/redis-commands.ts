// `npm run bench:redis`: how many Redis commands One Hub sends per relay request (issue 38's
// measure). A private redis-server on a free loopback port serves one One Hub process (SQLite and
// REDIS_CONN_STRING), so nothing else's commands are counted. Redis's own `INFO commandstats` is
// read after each steady run; the background rate (timers, heartbeats, lease renewals) measured
// while the process sits idle for as long is subtracted.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  commandsPerRequest,
  countWhile,
  describeByCommand,
  startPrivateRedis,
} from '../apps/server/test/redis-commands.js';
import { everythingKey } from './everything.js';
import { closeClient, latencies, type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN, startChild, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

const redis = await startPrivateRedis();
const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const oneHub = await startOneHub(root, { REDIS_CONN_STRING: redis.url });
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
  const idle = await countWhile(redis.client, () => sleep(seconds * 1000));
  console.log(`idle: ${[...idle.calls.values()].reduce((a, b) => a + b, 0)} commands in ${idle.seconds.toFixed(1)} s`);
  console.log(
    '\n| Key | Requests | Errors | Redis commands per request | By command (per request) |\n|---|---:|---:|---:|---|',
  );
  for (const target of targets) {
    let requests = 0;
    let errors = 0;
    const run = await countWhile(redis.client, async () => {
      const result = await throughput(target, 16, seconds);
      requests = result.rps * seconds;
      errors = result.errors;
    });
    const perRequest = commandsPerRequest(run, idle, requests);
    console.log(
      `| ${target.name} | ${requests.toFixed(0)} | ${errors} | ${perRequest.total.toFixed(1)} | ${describeByCommand(perRequest)} |`,
    );
  }
} finally {
  await oneHub.stop();
  await upstream.stop();
  await redis.stop();
  await closeClient();
}
