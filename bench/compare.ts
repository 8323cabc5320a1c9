// `node --import tsx bench/compare.ts <checkout> <checkout>…`: One Hub as built in each checkout
// (`npm run build` in each first; `git worktree add ../before <commit>` gives an older one), side by
// side with the pass-through in rotating slices of 64 concurrent non-stream chats, each on SQLite
// with a fresh database: requests/s and CPU per request, and each one's CPU above the pass-through.
// For before/after figures of a change (BENCHMARKS.md); BENCH_ROUNDS and BENCH_SECONDS set the slices.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternatingRuns, closeClient, type Target } from './measure.js';
import { BENCH_ROOT_TOKEN, type Child, startChild, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const here = fileURLToPath(new URL('..', import.meta.url));
const checkouts = process.argv.slice(2).map((path) => resolve(path));
if (checkouts.length === 0) throw new Error('name one or more checkouts to compare, e.g. ../before .');
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const serve = ['--import', 'tsx', resolve(here, 'bench/serve.ts')];

const upstream = await startChild(process.execPath, [...serve, 'upstream'], {});
const passthrough = await startChild(process.execPath, [...serve, 'passthrough', upstream.url], {});
const children: Child[] = [];
try {
  const targets: Target[] = [{ name: 'pass-through', base: passthrough.url, headers: {}, child: passthrough }];
  for (const checkout of checkouts) {
    const child = await startOneHub(checkout);
    children.push(child);
    const key = await prepareOneHub(child.url, BENCH_ROOT_TOKEN, upstream.url);
    targets.push({ name: checkout, base: child.url, headers: { authorization: `Bearer ${key}` }, child });
  }
  const measured = await alternatingRuns(targets, rounds, seconds);
  const base = measured[0]?.cpu ?? 0;
  console.log('| Build | Requests/s | CPU per request | Above the pass-through | Errors |\n|---|---|---|---|---|');
  for (const [index, run] of measured.entries()) {
    const above = index === 0 ? '' : `${(run.cpu - base).toFixed(0)} µs`;
    console.log(
      `| ${targets[index]?.name} | ${run.rps.toFixed(0)} | ${run.cpu.toFixed(0)} µs | ${above} | ${run.errors} |`,
    );
  }
} finally {
  await closeClient();
  await Promise.allSettled([...children.map((child) => child.stop()), passthrough.stop(), upstream.stop()]);
}
