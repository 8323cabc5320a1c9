import { setMaxListeners } from 'node:events';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import type { Child } from './processes.js';

export interface Target {
  name: string;
  base: string;
  headers: Record<string, string>;
  child?: Child;
}

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
const client = new Agent({ keepAliveTimeout: 60_000 });

export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** Requests per second and the target's CPU per request at `connections` concurrent. */
export async function throughput(target: Target, connections: number, seconds: number) {
  const cpuBefore = target.child?.cpuMicros() ?? 0;
  const result = await autocannon({
    url: `${target.base}/v1/chat/completions`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: chatBody,
    connections,
    duration: seconds,
  });
  const requests = result.requests.total;
  const cpu = (target.child?.cpuMicros() ?? 0) - cpuBefore;
  return {
    rps: result.requests.average,
    cpuMicrosPerRequest: requests > 0 ? cpu / requests : 0,
    errors: result.non2xx + result.errors,
  };
}

/**
 * Each target's mean requests/s and CPU per request, and its errors, over `rounds` load runs of
 * `seconds` at 64 concurrent, after a warm-up: the targets alternate in rotating order, so each
 * gets the same share of the machine's moments. `before` runs ahead of each run of a target (to
 * switch a setting the target stands for).
 */
export async function alternatingRuns(
  targets: Target[],
  rounds: number,
  seconds: number,
  before: (target: Target) => Promise<void> = async () => {},
) {
  for (const target of targets) {
    await before(target);
    await throughput(target, 16, 2); // warm-up
  }
  const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      await before(targets[index] as Target);
      runs[index]?.push(await throughput(targets[index] as Target, 64, seconds));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return runs.map((measured) => ({
    cpu: mean(measured.map((run) => run.cpuMicrosPerRequest)),
    rps: mean(measured.map((run) => run.rps)),
    errors: measured.reduce((sum, run) => sum + run.errors, 0),
  }));
}

/**
 * Runs `measure` on each target in turn, `rounds` times, and returns each target's samples
 * together, sorted. Measuring in alternating slices rather than one block per target gives every
 * target the same share of the machine's good and bad moments, so their figures compare fairly.
 */
export async function interleaved<Key extends string>(
  targets: Record<Key, Target>,
  rounds: number,
  measure: (target: Target) => Promise<number[]>,
): Promise<Record<Key, number[]>> {
  const keys = Object.keys(targets) as Key[];
  const samples = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Record<Key, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const key of keys) samples[key].push(...(await measure(targets[key])));
  }
  for (const key of keys) samples[key].sort((left, right) => left - right);
  return samples;
}

/** Sequential request latencies in ms (one at a time), sorted. */
export async function latencies(target: Target, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = process.hrtime.bigint();
    const response = await request(`${target.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: chatBody,
      dispatcher: client,
    });
    await response.body.arrayBuffer();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((left, right) => left - right);
}

function streamBody(events: number, delay: number): string {
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'Hello' }],
    stream: true,
    bench_events: events,
    bench_delay: delay,
  });
}

/** Time to the first streamed byte, sequentially, sorted (ms). */
export async function firstByteTimes(target: Target, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = process.hrtime.bigint();
    const response = await request(`${target.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: streamBody(5, 0),
      dispatcher: client,
    });
    let first = 0;
    for await (const _part of response.body) if (first === 0) first = Number(process.hrtime.bigint() - started) / 1e6;
    samples.push(first);
  }
  return samples.sort((left, right) => left - right);
}

/** CPU of the target per streamed event, over `streams` streams of `events` events, 4 at a time. */
export async function cpuPerEvent(target: Target, streams: number, events: number): Promise<number> {
  const before = target.child?.cpuMicros() ?? 0;
  for (let batch = 0; batch < streams; batch += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, streams - batch) }, async () => {
        const response = await request(`${target.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...target.headers },
          body: streamBody(events, 0),
          dispatcher: client,
        });
        for await (const _part of response.body) {
          // drain
        }
      }),
    );
  }
  return ((target.child?.cpuMicros() ?? 0) - before) / (streams * events);
}

/** RSS growth per open stream with `count` slow streams held open at once. */
export async function rssWithOpenStreams(target: Target, count: number) {
  const child = target.child;
  if (!child) throw new Error('needs a child process');
  const idle = child.rssBytes();
  const many = new Agent({ keepAliveTimeout: 60_000, connections: count + 10 });
  const controller = new AbortController();
  setMaxListeners(count + 10, controller.signal);
  let opened = 0;
  const streams = Array.from({ length: count }, async () => {
    const response = await request(`${target.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: streamBody(60, 1000),
      dispatcher: many,
      signal: controller.signal,
    });
    opened++;
    for await (const _part of response.body) {
      // hold open
    }
  });
  for (let waited = 0; opened < count && waited < 300; waited++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const open = child.rssBytes();
  controller.abort();
  await Promise.allSettled(streams);
  await many.close();
  return { opened, idleBytes: idle, openBytes: open, perStreamBytes: (open - idle) / Math.max(1, opened) };
}

export async function closeClient(): Promise<void> {
  await client.close();
}
