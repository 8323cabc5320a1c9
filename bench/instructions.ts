// `npm run bench:instructions`: machine instructions per relayed request, counted by valgrind's
// callgrind, for the bare pass-through and One Hub (as `npm start` runs it, on SQLite). Unlike CPU
// time, the count does not move with what else the machine is doing, so an A/B of a change reads
// true on a busy machine (the same build counts within about 2% run to run). It is a tool for
// comparing builds, not the measure: `npm run bench` reports CPU time.
//
// Each process runs under callgrind with instrumentation off through a warm-up, then on for a
// fixed number of requests at 16 concurrent (callgrind_control); every thread is counted (V8's
// compiler and collector threads too), kernel time is not. The count is split by where it ran:
// V8's optimising compilers, the garbage collector, SQLite, V8's builtins and runtime, the
// JavaScript the JIT made, libc. Under valgrind the process runs ~50× slower, so optimised code
// arrives later in requests than in a real run: read the rows without the compilers when comparing.
//
//   BENCH_REQUESTS=2000 BENCH_WARMUP=1000 BENCH_OPTIONS=LogConsumeEnabled=false BENCH_ENV=JOURNAL=off \
//     npm run bench:instructions
//
// BENCH_PASSTHROUGH=0 skips the pass-through; each process's callgrind dump is kept and named on stderr.
// BENCH_LOAD=stream counts per streamed event instead: BENCH_REQUESTS and BENCH_WARMUP are then
// streamed chats of BENCH_EVENTS events each (default 1000), 4 at a time.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuPerEvent } from './measure.js';
import { BENCH_ROOT_TOKEN, startChild, startFlags } from './processes.js';
import { callApi, prepareOneHub } from './setup.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const streaming = process.env.BENCH_LOAD === 'stream';
const requests = Number(process.env.BENCH_REQUESTS ?? (streaming ? 8 : 2000));
const warmup = Number(process.env.BENCH_WARMUP ?? (streaming ? 8 : 1000));
const events = Number(process.env.BENCH_EVENTS ?? 1000);
/** What one count is divided by: a request, or a streamed event. */
const unitsPerRequest = streaming ? events : 1;
const pairs = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]);
const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });

/** Where an instruction ran, by the function callgrind names (first match wins). */
const CATEGORIES: [string, RegExp][] = [
  ["V8's optimising compilers", /compiler::|maglev::|Turboshaft|turboshaft::|OptimizedCompilationJob/],
  [
    'garbage collection',
    /Marking|Sweeper|Scaveng|Evacuat|MemoryChunk|RememberedSet|SlotSet|GCTracer|MarkCompact|Heap::/,
  ],
  ['SQLite', /better_sqlite3\.node/],
  ["V8's builtins", /Builtins_/],
  ["V8's runtime, parser and interpreter", /\[\/usr\/bin\/node\]|\/node\]$/],
  ['JavaScript (JIT code)', /\[\?\?\?\]\s*$/],
  ['libuv', /deps\/uv\//],
  ['libc and libstdc++', /libc\.so|libstdc\+\+|libm\.so|libgcc|malloc|nptl|stdio-common|libio|string\/|misc\//],
];

function checkTools(): void {
  for (const tool of ['valgrind', 'callgrind_control', 'callgrind_annotate']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      console.error(`${tool} is not installed (Debian: apt-get install -y valgrind)`);
      process.exit(1);
    }
  }
}

async function measure(name: string, upstreamUrl: string, bare: boolean) {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-instructions-'));
  const port = 20_000 + Math.floor(Math.random() * 12_000);
  const environment = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SQLITE_PATH: join(directory, 'one-hub.db'),
    LOG_LEVEL: 'warn',
    INITIAL_ROOT_ACCESS_TOKEN: BENCH_ROOT_TOKEN,
    MAX_CONNECTIONS_PER_ADDRESS: '4096',
    ...Object.fromEntries(bare ? [] : pairs(process.env.BENCH_ENV)),
  };
  const program = bare
    ? ['--import', 'tsx', join(root, 'bench/serve.ts'), 'passthrough', upstreamUrl]
    : [...startFlags(root), join(root, 'apps/server/dist/main.js')];
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(directory, 'callgrind.%p')}`,
      process.execPath,
      ...program,
    ],
    { env: environment, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  // valgrind names its control pipe after HOST, which One Hub reads as its address: the same here.
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(child.pid)], { env: environment, stdio: 'ignore' });
  try {
    let base = `http://127.0.0.1:${port}`;
    if (bare) base = await new Promise((resolve) => child.stdout.once('data', (data) => resolve(String(data).trim())));
    for (let attempt = 0; attempt < 1200 && !bare; attempt++) {
      if (
        await fetch(`${base}/api/status`).then(
          (response) => response.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!bare) {
      headers.authorization = `Bearer ${await prepareOneHub(base, BENCH_ROOT_TOKEN, upstreamUrl)}`;
      for (const [key, value] of pairs(process.env.BENCH_OPTIONS))
        await callApi(base, 'PUT', '/api/option/', { key, value });
    }
    const target = { name, base, headers };
    const load = async (amount: number) => {
      if (!streaming)
        return autocannon({
          url: `${base}/v1/chat/completions`,
          method: 'POST',
          headers,
          body: chatBody,
          connections: 16,
          amount,
        });
      await cpuPerEvent(target, amount, events);
      return { errors: 0, non2xx: 0 };
    };
    await load(warmup);
    control('-i', 'on');
    const result = await load(requests);
    control('-d');
    const dump = readdirSync(directory).find((file) => /^callgrind\.\d+\.\d+$/.test(file));
    if (!dump) throw new Error(`callgrind wrote no dump for ${name}`);
    const annotated = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', join(directory, dump)], {
      maxBuffer: 256 * 1024 * 1024,
    }).toString();
    const byCategory = new Map<string, number>();
    let total = 0;
    for (const line of annotated.split('\n')) {
      const match = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
      if (!match?.[1] || !match[2] || match[2].includes('PROGRAM TOTALS')) continue;
      const count = Number(match[1].replaceAll(',', ''));
      const category = CATEGORIES.find(([, pattern]) => pattern.test(match[2] as string))?.[0] ?? 'other';
      byCategory.set(category, (byCategory.get(category) ?? 0) + count);
      total += count;
    }
    // Kept for a closer look: `callgrind_annotate --inclusive=yes <dump>` counts by function.
    console.error(`${name}: callgrind dump ${join(directory, dump)}`);
    const errors = result.errors + result.non2xx;
    return { name, total: total / (requests * unitsPerRequest), byCategory, units: requests * unitsPerRequest, errors };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

checkTools();
const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
try {
  // BENCH_PASSTHROUGH=0 counts One Hub alone, for A/B runs of One Hub's builds.
  const rows = process.env.BENCH_PASSTHROUGH === '0' ? [] : [await measure('pass-through', upstream.url, true)];
  rows.push(await measure('One Hub', upstream.url, false));
  const names = [...CATEGORIES.map(([name]) => name), 'other'];
  const thousands = (value: number) => `${(value / 1000).toFixed(streaming ? 2 : 0)}k`;
  console.log(
    streaming
      ? `Instructions per streamed event (${requests} streams of ${events} events, 4 at a time, after ${warmup} streams of warm-up)\n`
      : `Instructions per request (${requests} requests at 16 concurrent after ${warmup} of warm-up)\n`,
  );
  console.log(`| Where | ${rows.map((row) => row.name).join(' | ')} |\n|---|${rows.map(() => '---:').join('|')}|`);
  for (const name of names) {
    console.log(
      `| ${name} | ${rows.map((row) => thousands((row.byCategory.get(name) ?? 0) / row.units)).join(' | ')} |`,
    );
  }
  const compiling = (row: (typeof rows)[number]) => (row.byCategory.get(names[0] as string) ?? 0) / row.units;
  console.log(`| **all** | ${rows.map((row) => thousands(row.total)).join(' | ')} |`);
  console.log(
    `| **all but the compilers** | ${rows.map((row) => thousands(row.total - compiling(row))).join(' | ')} |`,
  );
  console.log(`| errors | ${rows.map((row) => row.errors).join(' | ')} |`);
} finally {
  await upstream.stop();
}
