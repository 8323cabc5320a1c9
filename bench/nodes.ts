// `npm run bench:nodes` (issue 38 item 2): 1, 2 and 4 One Hub processes on one fresh PostgreSQL
// database and one private Redis, driven together by 64 connections spread over the nodes. Per
// node count: requests/s, CPU per request summed over the node processes, Redis commands per
// request (by command, the idle rate subtracted) and database writes (pg_stat_database). Then,
// on four nodes, the money check (a small balance spent on all four at once is never overdrawn,
// and balance + logged charges equal the start once settled) and the disabled-key check (a key
// disabled on node 1 is refused by every node within a second).
// Needs TEST_PG_URL (a PostgreSQL server on loopback where the user may create databases; `source
// /work/dbenv.sh` or your own) and `redis-server` on the PATH. BENCH_SECONDS (default 4) per run.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../apps/server/src/platform/db/index.js';
import { createTestDatabase } from '../apps/server/test/databases.js';
import { type PrivateRedis, startPrivateRedis } from '../apps/server/test/redis-commands.js';
import { logStorage } from './log-storage.js';
import { closeClient } from './measure.js';
import { moneyAndKeyChecks } from './nodes-checks.js';
import { startNodes, stopNodes } from './nodes-cluster.js';
import { measurePhase, type PhaseResult } from './nodes-load.js';
import { nodesReport } from './nodes-report.js';
import { BENCH_ROOT_TOKEN, type Child, startChild } from './processes.js';
import { prepareOneHub } from './setup.js';

if (!process.env.TEST_PG_URL) {
  console.error('bench:nodes needs TEST_PG_URL, e.g. postgres://user:password@127.0.0.1:5432/postgres');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const counts = [1, 2, 4];

const database = await createTestDatabase('postgres');
const databaseUrl = database.target.sqlDsn ?? '';
let redis: PrivateRedis | undefined;
let upstream: Child | undefined;
let nodes: Child[] = [];
try {
  redis = await startPrivateRedis();
  upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
  const phases: PhaseResult[] = [];
  let key = '';
  for (const count of counts) {
    nodes = await startNodes(root, count, { databaseUrl, redisUrl: redis.url });
    if (!key) key = await prepareOneHub(nodes[0]?.url ?? '', BENCH_ROOT_TOKEN, upstream.url);
    const phase = await measurePhase(nodes, key, redis, databaseUrl, seconds);
    console.error(
      `${count} node(s): ${phase.rps.toFixed(0)} requests/s, ${phase.redis.total.toFixed(1)} Redis commands per request`,
    );
    phases.push(phase);
    if (count !== counts[counts.length - 1]) {
      await stopNodes(nodes);
      nodes = [];
    }
  }
  const checks = await moneyAndKeyChecks(nodes, BENCH_ROOT_TOKEN, databaseUrl);
  const handle = openDatabase(database.target);
  const storage = await logStorage(handle).finally(() => handle.close());
  console.log(nodesReport(phases, checks, storage, seconds));
  const usedMemory = Number(/used_memory:(\d+)/.exec(await redis.client.info('memory'))?.[1] ?? 0);
  console.log(
    `\nRedis at the end: ${await redis.client.dbsize()} keys, ${(usedMemory / 1e6).toFixed(1)} MB used (INFO memory).`,
  );
  if (!checks.money.pass || !checks.disabled.pass) process.exitCode = 1;
} finally {
  await stopNodes(nodes);
  await upstream?.stop();
  await redis?.stop();
  await database.drop();
  await closeClient();
}
