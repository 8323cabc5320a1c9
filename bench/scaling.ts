// Part of `npm run bench`: One Hub with one worker and with two (WORKERS=2), and the cost of the
// Prometheus metrics, measured side by side. Several workers need Redis, so all three runs use it.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import { type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN, type Child, cpuMicrosOf, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const METRICS_USER = 'bench';
const METRICS_PASSWORD = 'bench-metrics-password';

/** The process and every process it started (a cluster's workers), as /proc lists them. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // The process has ended.
  }
  return [pid, ...children.flatMap(processTree)];
}

const treeCpuMicros = (pid: number) =>
  processTree(pid).reduce((sum, member) => {
    try {
      return sum + cpuMicrosOf(member);
    } catch {
      return sum;
    }
  }, 0);

interface Variant {
  name: string;
  workers: number;
  metrics: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'WORKERS=1, metrics off', workers: 1, metrics: false },
  { name: 'WORKERS=1, metrics on', workers: 1, metrics: true },
  { name: 'WORKERS=2, metrics on', workers: 2, metrics: true },
];

async function startVariant(root: string, variant: Variant, redisUrl: string): Promise<Child> {
  const child = await startOneHub(root, {
    REDIS_CONN_STRING: redisUrl,
    WORKERS: String(variant.workers),
    ...(variant.metrics ? { METRICS_USER, METRICS_PASSWORD } : {}),
  });
  const pid = child.process.pid ?? 0;
  // The primary answers /api/status through its first worker; the second starts just after.
  for (
    let attempt = 0;
    attempt < 100 && processTree(pid).length < variant.workers + 1 && variant.workers > 1;
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...child, cpuMicros: () => treeCpuMicros(pid) };
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The scaling section of BENCHMARKS.md (markdown). */
export async function scalingSection(root: string, upstreamUrl: string, seconds: number): Promise<string> {
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const heading = '## Workers and metrics\n\n';
  if (!(await redisAnswers(redisUrl))) {
    return `${heading}Not measured in this run: several workers need Redis, and none answered at ${new URL(redisUrl).host} (set BENCH_REDIS_URL).\n`;
  }
  const children: Child[] = [];
  try {
    const targets: Target[] = [];
    for (const variant of VARIANTS) {
      const child = await startVariant(root, variant, redisUrl);
      children.push(child);
      const key = await prepareOneHub(child.url, BENCH_ROOT_TOKEN, upstreamUrl);
      targets.push({ name: variant.name, base: child.url, headers: { authorization: `Bearer ${key}` }, child });
    }
    for (const target of targets) await throughput(target, 16, 2); // warm-up
    // Alternating slices, as in the main table, so every variant gets the machine's good and bad moments.
    const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
    for (let round = 0; round < 2; round++) {
      for (const [index, target] of targets.entries()) runs[index]?.push(await throughput(target, 64, seconds / 2));
    }
    // The metrics of the cluster come from both workers in one scrape.
    const scrape = await fetch(`${targets[2]?.base}/api/metrics`, {
      headers: { authorization: `Basic ${Buffer.from(`${METRICS_USER}:${METRICS_PASSWORD}`).toString('base64')}` },
    });
    const workersSeen = /^onehub_worker_processes (\d+)$/m.exec(await scrape.text())?.[1] ?? '?';
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const single = mean(runs[0]?.map((run) => run.rps) ?? []);
    const rows = targets.map((target, index) => {
      const measured = runs[index] ?? [];
      const rps = mean(measured.map((run) => run.rps));
      const cpu = mean(measured.map((run) => run.cpuMicrosPerRequest));
      const errors = measured.reduce((sum, run) => sum + run.errors, 0);
      return `| ${target.name} | ${rps.toFixed(0)} | ${(rps / single).toFixed(2)} | ${cpu.toFixed(0)} µs | ${errors} |`;
    });
    return `${heading}Three more One Hub processes in front of the same upstream, each with Redis (REDIS_CONN_STRING, needed by WORKERS=2) and SQLite, 64 concurrent non-stream chats, two ${seconds / 2} s runs each, alternating. CPU counts the primary and all its workers. The load generator and the upstream share the machine's ${availableParallelism()} cores with the workers, so two workers cannot double the figure here; the scrape of the two-worker server after its runs showed ${workersSeen} workers.\n\n| Variant | Requests/s | vs WORKERS=1, metrics off | CPU per request | Errors |\n|---|---|---|---|---|\n${rows.join('\n')}\n`;
  } finally {
    await Promise.allSettled(children.map((child) => child.stop()));
  }
}
