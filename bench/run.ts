// `npm run bench`: One Hub (auth, routing, billing and logs on) against a minimal pass-through
// proxy, both in front of the same loopback upstream, measured side by side in one run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { affinitySection } from './affinity.js';
import { budgetsSection } from './budgets.js';
import { everythingSection } from './everything.js';
import { journalSection } from './journal.js';
import {
  closeClient,
  cpuPerEvent,
  firstByteTimes,
  interleaved,
  latencies,
  percentile,
  rssWithOpenStreams,
  type Target,
  throughput,
} from './measure.js';
import { BENCH_ROOT_TOKEN, startChild, startFlags, startOneHub } from './processes.js';
import { routingSection } from './routing.js';
import { scalingSection } from './scaling.js';
import { prepareOneHub } from './setup.js';
import { tracingSection } from './tracing.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const tsx = ['--import', 'tsx', join(root, 'bench/serve.ts')];

const upstream = await startChild(process.execPath, [...tsx, 'upstream'], {});
const passthrough = await startChild(process.execPath, [...tsx, 'passthrough', upstream.url], {});
const ROOT_TOKEN = BENCH_ROOT_TOKEN;

const oneHub = await startOneHub(root);

/**
 * The throughput load on a process that has served nothing else: V8 sizes its heap after the
 * largest live set it has seen, so after 1000 open streams the same load peaks higher.
 */
async function freshProcessLoadPeak(): Promise<number> {
  const fresh = await startOneHub(root);
  try {
    const key = await prepareOneHub(fresh.url, ROOT_TOKEN, upstream.url);
    const target: Target = {
      name: 'One Hub (fresh)',
      base: fresh.url,
      headers: { authorization: `Bearer ${key}` },
      child: fresh,
    };
    fresh.resetPeakRss();
    await throughput(target, 16, 2); // warm-up
    await throughput(target, 64, seconds);
    return fresh.peakRssBytes();
  } finally {
    await fresh.stop();
  }
}

/** Several load runs as one: mean requests/s and CPU per request, all errors. */
function combined(runs: Awaited<ReturnType<typeof throughput>>[]) {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    rps: mean(runs.map((run) => run.rps)),
    cpuMicrosPerRequest: mean(runs.map((run) => run.cpuMicrosPerRequest)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}

/** Where the notes kept across runs begin in BENCHMARKS.md. */
const KEPT_NOTES = '<!-- kept by npm run bench -->';

const direct: Target = { name: 'upstream directly', base: upstream.url, headers: {} };
const base: Target = { name: 'pass-through proxy', base: passthrough.url, headers: {}, child: passthrough };

try {
  const apiKey = await prepareOneHub(oneHub.url, ROOT_TOKEN, upstream.url);
  const hub: Target = {
    name: 'One Hub',
    base: oneHub.url,
    headers: { authorization: `Bearer ${apiKey}` },
    child: oneHub,
  };
  // Memory first, on the fresh process: a few requests to load the code paths, then the baseline.
  await latencies(hub, 200);
  const slowStreams = await rssWithOpenStreams(hub, 1000);
  // Closing those streams early bills them on counted tokens, which loads the tokenizer: the peak so
  // far is that, and the load runs below get a peak of their own.
  const streamsPeakRss = oneHub.peakRssBytes();
  oneHub.resetPeakRss();
  await throughput(hub, 16, 2); // warm-up
  await throughput(base, 16, 2);
  // Each comparison alternates between the targets in slices (see `interleaved`).
  const baseRuns: Awaited<ReturnType<typeof throughput>>[] = [];
  const hubRuns: typeof baseRuns = [];
  for (let run = 0; run < 2; run++) {
    baseRuns.push(await throughput(base, 64, seconds / 2));
    hubRuns.push(await throughput(hub, 64, seconds / 2));
  }
  const [baseThroughput, hubThroughput] = [combined(baseRuns), combined(hubRuns)];
  const latency = await interleaved({ direct, hub, base }, 10, (target) => latencies(target, 200));
  const firstByte = await interleaved({ direct, hub, base }, 10, (target) => firstByteTimes(target, 150));
  const [directLatency, hubLatency, baseLatency] = [latency.direct, latency.hub, latency.base];
  const [directFirstByte, hubFirstByte, baseFirstByte] = [firstByte.direct, firstByte.hub, firstByte.base];
  const hubEventCpu = await cpuPerEvent(hub, 40, 1000);
  const baseEventCpu = await cpuPerEvent(base, 40, 1000);
  const loadPeakRss = oneHub.peakRssBytes();
  const freshLoadPeakRss = await freshProcessLoadPeak();

  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const rows = [
    [
      'Requests/s at 64 concurrent (non-stream chat)',
      baseThroughput.rps.toFixed(0),
      hubThroughput.rps.toFixed(0),
      '≥ 50% of pass-through',
    ],
    [
      'CPU per request',
      `${baseThroughput.cpuMicrosPerRequest.toFixed(0)} µs`,
      `${hubThroughput.cpuMicrosPerRequest.toFixed(0)} µs`,
      '',
    ],
    [
      'CPU per request above the pass-through',
      '',
      `${(hubThroughput.cpuMicrosPerRequest - baseThroughput.cpuMicrosPerRequest).toFixed(0)} µs`,
      '≤ 60 µs',
    ],
    ['Errors during the load run', String(baseThroughput.errors), String(hubThroughput.errors), '0'],
    [
      `p50 latency at 1 concurrent (upstream alone: ${ms(percentile(directLatency, 0.5))})`,
      ms(percentile(baseLatency, 0.5)),
      ms(percentile(hubLatency, 0.5)),
      '',
    ],
    [
      'Added p50 latency',
      ms(percentile(baseLatency, 0.5) - percentile(directLatency, 0.5)),
      ms(percentile(hubLatency, 0.5) - percentile(directLatency, 0.5)),
      '≤ 0.25 ms',
    ],
    [
      'Added p99 latency',
      ms(percentile(baseLatency, 0.99) - percentile(directLatency, 0.99)),
      ms(percentile(hubLatency, 0.99) - percentile(directLatency, 0.99)),
      '',
    ],
    [
      'Added time to first streamed byte (p50)',
      ms(percentile(baseFirstByte, 0.5) - percentile(directFirstByte, 0.5)),
      ms(percentile(hubFirstByte, 0.5) - percentile(directFirstByte, 0.5)),
      '≤ 0.3 ms',
    ],
    ['CPU per streamed event', `${baseEventCpu.toFixed(1)} µs`, `${hubEventCpu.toFixed(1)} µs`, ''],
    ['CPU per streamed event above the pass-through', '', `${(hubEventCpu - baseEventCpu).toFixed(1)} µs`, '≤ 2 µs'],
    ['Peak RSS during the 64-concurrent load run, on a fresh process', '', mb(freshLoadPeakRss), '< 150 MB'],
    ['Peak RSS during all the load runs, after the slow-stream phase below', '', mb(loadPeakRss), ''],
    ['Peak RSS with the slow streams, then the tokenizer loaded to bill them', '', mb(streamsPeakRss), ''],
    [
      `RSS with ${slowStreams.opened} slow streams open (idle ${mb(slowStreams.idleBytes)})`,
      '',
      mb(slowStreams.openBytes),
      '',
    ],
    ['Memory per open stream', '', `${(slowStreams.perStreamBytes / 1024).toFixed(1)} KB`, '< 64 KB'],
  ];
  const table = [
    '| Measure | Pass-through | One Hub | Target |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const journal = await journalSection(root, upstream.url, base, seconds);
  const budgets = await budgetsSection(hub, base, seconds);
  const everything = await everythingSection(root, upstream.url, base, seconds);
  const routing = await routingSection(hub, base, seconds);
  const affinity = await affinitySection(hub, base, seconds);
  const tracing = await tracingSection(root, upstream.url, base, seconds);
  const scaling = await scalingSection(root, upstream.url, seconds);
  const report = `# Benchmarks\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version}, two ${seconds / 2} s load runs per proxy, alternating, everything on loopback on this machine; the load generator, the upstream and the proxy under test share its cores).\n\nOne Hub runs as \`npm start\` runs it (\`node ${startFlags(root).join(' ')}\`) with key auth, channel routing, quota reservation and settlement, consume logs and the crash journal on, on SQLite. The pass-through is a minimal undici proxy with none of those. Both sit in front of the same loopback mock upstream.\n\n${table}\n\n${everything}\n${journal}\n${budgets}\n${routing}\n${affinity}\n${tracing}\n${scaling}`;
  process.stdout.write(`${report}\n`);
  if (process.env.BENCH_WRITE !== '0') {
    // The notes written by hand below the table (decisions, profiles) are kept.
    const file = join(root, 'BENCHMARKS.md');
    const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const notes = previous.indexOf(KEPT_NOTES);
    writeFileSync(file, notes < 0 ? report : `${report}\n${previous.slice(notes)}`);
  }
} finally {
  await closeClient();
  await Promise.allSettled([oneHub.stop(), passthrough.stop(), upstream.stop()]);
}
