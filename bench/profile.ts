// `npm run bench:profile`: runs One Hub under the throughput load with V8's CPU profiler on and
// prints where its time goes, by function and by package. A tool for finding hot spots, not a
// measurement: the profiler itself slows the process down.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { cpuPerEvent, latencies, percentile, throughput } from './measure.js';
import { startChild, startFlags } from './processes.js';
import { callApi, prepareOneHub } from './setup.js';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rootToken = 'bench-root-access-token-0123456789';
// BENCH_PROFILE=0 measures the same load without the profiler, three runs, for quick A/B checks.
const profiling = process.env.BENCH_PROFILE !== '0';
const workDirectory = mkdtempSync(join(tmpdir(), 'one-hub-profile-'));

const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const port = 30_000 + Math.floor(Math.random() * 20_000);
// BENCH_PROFILE=heap samples allocations instead (V8's sampling heap profiler through the
// inspector, garbage included): what the collector has to clear, by the function that allocated it.
// BENCH_PROFILE=promoted counts only what outlived the young generation's collections: what is
// promoted to the old generation and makes the full collections (V8's helper threads) work.
const promoted = process.env.BENCH_PROFILE === 'promoted';
const heap = process.env.BENCH_PROFILE === 'heap' || promoted;
const inspectorPort = 20_000 + Math.floor(Math.random() * 10_000);
const profilerFlags = !profiling
  ? []
  : heap
    ? [`--inspect=127.0.0.1:${inspectorPort}`]
    : [
        '--cpu-prof',
        `--cpu-prof-dir=${workDirectory}`,
        `--cpu-prof-interval=${process.env.BENCH_PROFILE_INTERVAL ?? 1000}`,
      ];
// BENCH_NODE_FLAGS adds Node or V8 flags to One Hub's (e.g. `--max-semi-space-size=16` for an A/B run,
// `--trace-gc`); what the process prints is passed on to this one's standard error.
const extraFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
// BENCH_TARGET=passthrough profiles the bare pass-through under the same load: what both share
// (Node's HTTP server, undici, the socket writes) shows in both, the rest is One Hub's own.
const bare = process.env.BENCH_TARGET === 'passthrough';
const oneHub = bare
  ? await startChild(
      process.execPath,
      [...profilerFlags, ...extraFlags, '--import', 'tsx', join(root, 'bench/serve.ts'), 'passthrough', upstream.url],
      {},
    )
  : await startChild(
      process.execPath,
      [...profilerFlags, ...startFlags(root), ...extraFlags, join(root, 'apps/server/dist/main.js')],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        SQLITE_PATH: join(workDirectory, 'one-hub.db'),
        LOG_LEVEL: 'warn',
        INITIAL_ROOT_ACCESS_TOKEN: rootToken,
      },
      `http://127.0.0.1:${port}`,
    );
if (extraFlags.length > 0) oneHub.process.stdout?.on('data', (data: Buffer) => process.stderr.write(data));
/** Requests served during the profiled load run (the warm-up and setup are a small share). */
let profiledRequests = 0;
let allocationProfile: { head: HeapNode } | undefined;
try {
  const apiKey = bare ? '' : await prepareOneHub(oneHub.url, rootToken, upstream.url);
  // BENCH_OPTIONS=Name=value,… sets options before the load (e.g. LogConsumeEnabled=false to see what
  // the consume logs cost).
  for (const pair of (process.env.BENCH_OPTIONS ?? '').split(',').filter(Boolean)) {
    const [key, value] = pair.split('=');
    await callApi(oneHub.url, 'PUT', '/api/option/', { key, value }, rootToken);
  }
  const hub = { name: 'One Hub', base: oneHub.url, headers: { authorization: `Bearer ${apiKey}` }, child: oneHub };
  // BENCH_LOAD=latency profiles the one-at-a-time path the added-latency figure measures instead.
  if (process.env.BENCH_LOAD === 'stream') {
    // BENCH_LOAD=stream: long streamed chats (1000 events each, 4 at a time), the per-event path.
    await cpuPerEvent(hub, 8, 1000);
    for (let run = 0; run < (profiling ? 1 : 3); run++) {
      const micros = await cpuPerEvent(hub, 40 * seconds, 1000);
      profiledRequests = 40 * seconds * 1000;
      console.log(`${micros.toFixed(2)} µs CPU per streamed event`);
    }
  } else if (process.env.BENCH_LOAD === 'latency') {
    await latencies(hub, 500);
    const direct = { name: 'upstream', base: upstream.url, headers: {} };
    for (let run = 0; run < (profiling ? 1 : 3); run++) {
      const alone = percentile(await latencies(direct, 4000), 0.5);
      const samples = await latencies(hub, 4000);
      const p50 = percentile(samples, 0.5);
      console.log(
        `p50 ${p50.toFixed(3)} ms (added ${(p50 - alone).toFixed(3)} ms), p99 ${percentile(samples, 0.99).toFixed(3)} ms`,
      );
    }
  } else {
    await throughput(hub, 16, 2);
    const sampling = heap ? await startAllocationSampling(inspectorPort) : undefined;
    for (let run = 0; run < (profiling ? 1 : 3); run++) {
      const result = await throughput(hub, 64, seconds);
      if (sampling) allocationProfile = await sampling.stop();
      profiledRequests = result.rps * seconds;
      const label = profiling ? ' (profiled)' : '';
      console.log(
        `${result.rps.toFixed(0)} req/s, ${result.cpuMicrosPerRequest.toFixed(0)} µs CPU per request${label}, peak RSS ${(oneHub.peakRssBytes() / 1e6).toFixed(1)} MB`,
      );
    }
  }
} finally {
  await oneHub.stop();
  await upstream.stop();
}

if (!profiling) process.exit(0);
if (heap) {
  printAllocations();
  process.exit(0);
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Starts V8's sampling heap profiler in the child, counting objects the collector has freed too. */
async function startAllocationSampling(port: number): Promise<{ stop(): Promise<{ head: HeapNode }> }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const socket = new WebSocket(targets[0]?.webSocketDebuggerUrl ?? '');
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      const onMessage = (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (message.id !== id) return;
        socket.off('message', onMessage);
        resolve(message.result);
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !promoted,
  });
  return {
    async stop() {
      const { profile } = (await call('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
      socket.close();
      return profile;
    },
  };
}

/** Bytes allocated per request during the load run, by allocating function (sampled). */
function printAllocations(): void {
  if (!allocationProfile) throw new Error('no allocation profile was taken');
  const totals = new Map<string, number>();
  let all = 0;
  const walk = (node: HeapNode) => {
    const frame = node.callFrame;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
    const key = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + node.selfSize);
    all += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(allocationProfile.head);
  const requests = Math.max(profiledRequests, 1);
  console.log(
    `\n${promoted ? 'Promoted' : 'Allocated'} per request: ${(all / requests).toFixed(0)} B; by function (sampled):`,
  );
  for (const [key, bytes] of [...totals]
    .sort((left, right) => right[1] - left[1])
    .slice(0, Number(process.env.BENCH_TOP ?? 40))) {
    console.log(`${(bytes / requests).toFixed(0).padStart(8)} B/req  ${key}`);
  }
  if (process.env.BENCH_CALLERS) printCallers(process.env.BENCH_CALLERS, requests);
}

/**
 * BENCH_CALLERS=name: the bytes a function allocated itself, by its callers four frames up, for a
 * builtin (`delete`, `set`) or a function allocated from many places.
 */
function printCallers(name: string, requests: number): void {
  const chains = new Map<string, number>();
  const walk = (node: HeapNode, path: string[]) => {
    const here = [...path, `${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`];
    if (node.callFrame.functionName === name && node.selfSize > 0) {
      const chain = here.slice(-5).join(' < ');
      chains.set(chain, (chains.get(chain) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  if (allocationProfile) walk(allocationProfile.head, []);
  console.log(`\nCallers of ${name}:`);
  for (const [chain, bytes] of [...chains].sort((left, right) => right[1] - left[1]).slice(0, 15)) {
    console.log(`${(bytes / requests).toFixed(0).padStart(8)} B/req  ${chain.split(' < ').reverse().join(' < ')}`);
  }
}

const file = readdirSync(workDirectory).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error('no CPU profile was written');
const profile = JSON.parse(readFileSync(join(workDirectory, file), 'utf8')) as {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
};
const { nodes } = profile;
const total = nodes.reduce((sum, node) => sum + node.hitCount, 0);
// Each sample stands for this many µs of the process's time; over the requests served, per request.
const microsPerHit = (profile.endTime - profile.startTime) / Math.max(total, 1);
const perRequest = (hits: number) =>
  profiledRequests > 0 ? `${((hits * microsPerHit) / profiledRequests).toFixed(1).padStart(6)} µs/req` : '';

function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  if (url.includes('/dist/')) return 'one-hub';
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native / GC / idle)' : url;
}

function top(keyOf: (node: ProfileNode) => string, count: number): void {
  const totals = new Map<string, number>();
  for (const node of nodes) totals.set(keyOf(node), (totals.get(keyOf(node)) ?? 0) + node.hitCount);
  const rows = [...totals].sort((left, right) => right[1] - left[1]).slice(0, count);
  for (const [key, hits] of rows) {
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${perRequest(hits)}  ${key}`);
  }
}

console.log('\nSelf time by package:');
top((node) => packageOf(node.callFrame.url), 15);
console.log('\nSelf time by function:');
top(
  (node) => {
    const frame = node.callFrame;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
    return `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
  },
  Number(process.env.BENCH_TOP ?? 40),
);

// Inclusive time: a function's own time plus everything it called (counted once per call path).
const byId = new Map(nodes.map((node) => [node.id, node]));
const inclusive = new Map<number, number>();
function subtree(node: ProfileNode): number {
  const known = inclusive.get(node.id);
  if (known !== undefined) return known;
  let hits = node.hitCount;
  for (const child of node.children ?? []) {
    const childNode = byId.get(child);
    if (childNode) hits += subtree(childNode);
  }
  inclusive.set(node.id, hits);
  return hits;
}
const ownFunctions = new Map<string, number>();
for (const node of nodes) {
  if (!node.callFrame.url.includes('/dist/')) continue;
  const key = `${node.callFrame.functionName || '(anonymous)'}  dist:${node.callFrame.lineNumber + 1}`;
  ownFunctions.set(key, (ownFunctions.get(key) ?? 0) + subtree(node));
}
console.log('\nInclusive time of One Hub functions:');
for (const [key, hits] of [...ownFunctions].sort((left, right) => right[1] - left[1]).slice(0, 40)) {
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${perRequest(hits)}  ${key}`);
}
