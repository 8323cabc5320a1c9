// `npm run bench:jit`: what V8 still compiles, deoptimises and misses in its inline caches once One
// Hub is warm. Starts the bench upstream and One Hub (as `npm start` runs it, on SQLite) with V8's
// log on (`--log-function-events --log-deopt`, and `--log-ic` with BENCH_IC=1), serves a warm-up,
// then counts the log's events during each of a few rounds of a fixed number of requests at 64
// concurrent: optimised compilations by function (an anonymous one by its place in the file),
// deoptimisations by place and reason, inline-cache misses by line, state and property. A warm
// steady state compiles nothing; what shows up in every round is work V8 redoes. BENCH_NODE_FLAGS
// adds flags to One Hub's node (e.g. --allow-natives-syntax for a temporary %DebugPrint).
//
//   BENCH_WARMUP=20000 BENCH_REQUESTS=10000 BENCH_ROUNDS=3 npm run bench:jit
//   BENCH_IC=1 BENCH_REQUESTS=2000 BENCH_ROUNDS=2 npm run bench:jit
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_ROOT_TOKEN, startChild, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const warmup = Number(process.env.BENCH_WARMUP ?? 20_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });

/** Where a script offset is: `file:line:column` for the files we can read, the offset otherwise. */
function placeOf(script: string, offset: number): string {
  if (script.startsWith('file://')) script = fileURLToPath(script);
  if (!script.startsWith('/')) return `${script}@${offset}`;
  let source = sources.get(script);
  if (source === undefined) {
    source = readFileSync(script, 'utf8');
    sources.set(script, source);
  }
  const before = source.slice(0, offset).split('\n');
  return `${relative(root, script)}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}
const sources = new Map<string, string>();
const scripts = new Map<string, string>();

/** A V8 log line's event: optimised compilations (by name or place) and deoptimisations (by place and reason). */
function eventOf(line: string): string | undefined {
  const fields = line.split(',');
  if (fields[0] === 'script-details') scripts.set(fields[1] ?? '', fields[2] ?? '');
  if (fields[0] === 'function' && (fields[1] === 'turbofan' || fields[1] === 'maglev')) {
    const [, tier, script = '', start = '0'] = fields;
    const name = fields.slice(7).join(',');
    return `compile ${tier} ${name || '(anonymous)'} ${placeOf(scripts.get(script) ?? script, Number(start))}`;
  }
  // With BENCH_IC=1 (`--log-ic`): inline-cache misses, by line (the log names no script), state and key.
  if (/^\w+IC$/.test(fields[0] ?? '')) {
    const [type, , , line, column, from, to, , key] = fields;
    return `ic ${type} ${line}:${column} ${from}->${to} ${key}`;
  }
  if (fields[0] === 'code-deopt') {
    const place = (fields[7] ?? '').replace(/^<|>$/g, '').replace(`${root}/`, '');
    return `deopt ${place} ${fields.slice(8).join(',')} (${fields[6]})`;
  }
  return undefined;
}

const upstream = await startChild(process.execPath, ['--import', 'tsx', join(root, 'bench/serve.ts'), 'upstream'], {});
const logFile = join(mkdtempSync(join(tmpdir(), 'one-hub-jit-')), 'v8.log');
const oneHub = await startOneHub(root, {}, [
  ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  '--log-function-events',
  '--log-deopt',
  ...(process.env.BENCH_IC === '1' ? ['--log-ic'] : []),
  '--no-logfile-per-isolate',
  `--logfile=${logFile}`,
]).catch(async (error: unknown) => {
  await upstream.stop();
  throw error;
});
// V8 also prints each deoptimisation on stdout: drained, so a full pipe never stalls the server.
oneHub.process.stdout?.resume();
// V8 writes its log as it goes; each round reads the lines added since the last one.
let readUpTo = 0;
function newEvents(): string[] {
  const text = readFileSync(logFile, 'latin1');
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(readUpTo, end).split('\n');
  readUpTo = end;
  return lines.map(eventOf).filter((event): event is string => event !== undefined);
}
try {
  const base = oneHub.url;
  const key = await prepareOneHub(base, BENCH_ROOT_TOKEN, upstream.url);
  const load = (amount: number) =>
    autocannon({
      url: `${base}/v1/chat/completions`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: chatBody,
      connections: 64,
      amount,
    });
  await load(warmup);
  for (let round = 1; round <= rounds; round++) {
    newEvents();
    const result = await load(requests);
    const events = newEvents();
    const counts = new Map<string, number>();
    for (const event of events) counts.set(event, (counts.get(event) ?? 0) + 1);
    const compiles = events.filter((event) => event.startsWith('compile')).length;
    const misses = events.filter((event) => event.startsWith('ic')).length;
    console.log(
      `\nRound ${round}: ${requests} requests (${result.errors + result.non2xx} failed), ` +
        `${compiles} compilations, ${events.length - compiles - misses} deoptimisations, ${misses} inline-cache misses`,
    );
    const sorted = [...counts].sort((a, b) => b[1] - a[1]);
    for (const [event, count] of sorted.slice(0, 60)) console.log(`  ${count}× ${event}`);
  }
} finally {
  await oneHub.stop();
  await upstream.stop();
}
