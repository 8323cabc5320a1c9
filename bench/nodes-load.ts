import { setTimeout as sleep } from 'node:timers/promises';
import {
  commandsPerRequest,
  countWhile,
  type PerRequest,
  type PrivateRedis,
} from '../apps/server/test/redis-commands.js';
import { type Target, throughput } from './measure.js';
import {
  backendCpu,
  backendCpuBetween,
  countsBetween,
  countsPerRequest,
  STATS_DELAY_MS,
  type WriteCounts,
  writeCounts,
} from './pg-stats.js';
import { type Child, cpuMicrosOf } from './processes.js';

/** 64 connections in all, spread evenly over the nodes. */
export const CONNECTIONS = 64;

export interface PhaseResult {
  /** CPU per request of redis-server and of the database's PostgreSQL backends. */
  redisCpuMicrosPerRequest: number;
  databaseCpuMicrosPerRequest: number;
  nodes: number;
  requests: number;
  rps: number;
  rpsPerNode: number[];
  cpuMicrosPerRequest: number;
  errors: number;
  redis: PerRequest;
  database: WriteCounts;
  idleRedisPerSecond: number;
}

/** Every node driven at once, each by its share of the connections, for `seconds`. */
async function driveAll(targets: Target[], seconds: number) {
  const share = Math.max(1, Math.floor(CONNECTIONS / targets.length));
  return Promise.all(targets.map((target) => throughput(target, share, seconds)));
}

/**
 * One measured phase on `nodes`: a warm-up, an idle window (the background rate of Redis commands
 * and database writes, subtracted below), then the load. Database counts are read
 * `STATS_DELAY_MS` after each window, when PostgreSQL has them all.
 */
export async function measurePhase(
  nodes: Child[],
  key: string,
  redis: PrivateRedis,
  databaseUrl: string,
  seconds: number,
): Promise<PhaseResult> {
  const targets: Target[] = nodes.map((node, index) => ({
    name: `node ${index + 1}`,
    base: node.url,
    headers: { authorization: `Bearer ${key}` },
    child: node,
  }));
  await driveAll(targets, 2); // warm-up
  await sleep(STATS_DELAY_MS);
  const idleStart = await writeCounts(databaseUrl);
  const idleRedis = await countWhile(redis.client, () => sleep(seconds * 1000));
  await sleep(STATS_DELAY_MS);
  const idleEnd = await writeCounts(databaseUrl);
  const idleSeconds = idleRedis.seconds + STATS_DELAY_MS / 1000;

  const cpuBefore = nodes.map((node) => node.cpuMicros());
  const redisCpuBefore = cpuMicrosOf(redis.pid);
  const databaseCpuBefore = await backendCpu(databaseUrl);
  let runs: Awaited<ReturnType<typeof driveAll>> = [];
  const runRedis = await countWhile(redis.client, async () => {
    runs = await driveAll(targets, seconds);
  });
  const cpu = nodes.reduce((sum, node, index) => sum + node.cpuMicros() - (cpuBefore[index] ?? 0), 0);
  const redisCpu = cpuMicrosOf(redis.pid) - redisCpuBefore;
  const databaseCpu = backendCpuBetween(databaseCpuBefore, await backendCpu(databaseUrl));
  await sleep(STATS_DELAY_MS);
  const runEnd = await writeCounts(databaseUrl);
  const runSeconds = runRedis.seconds + STATS_DELAY_MS / 1000;

  const rpsPerNode = runs.map((run) => run.rps);
  const rps = rpsPerNode.reduce((sum, value) => sum + value, 0);
  const requests = rps * seconds;
  return {
    nodes: nodes.length,
    requests,
    rps,
    rpsPerNode,
    cpuMicrosPerRequest: cpu / Math.max(requests, 1),
    redisCpuMicrosPerRequest: redisCpu / Math.max(requests, 1),
    databaseCpuMicrosPerRequest: databaseCpu / Math.max(requests, 1),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    redis: commandsPerRequest(runRedis, idleRedis, requests),
    database: countsPerRequest(
      countsBetween(idleEnd, runEnd),
      runSeconds,
      countsBetween(idleStart, idleEnd),
      idleSeconds,
      requests,
    ),
    idleRedisPerSecond: [...idleRedis.calls.values()].reduce((sum, value) => sum + value, 0) / idleRedis.seconds,
  };
}
