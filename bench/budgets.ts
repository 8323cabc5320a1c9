// Part of `npm run bench`: what budgets per window cost on the request path (issue 33). One One Hub
// process, two keys: one with no budget, one with three windows (5 hours of money, a day of requests,
// a week of tokens) that the load never reaches, alternating with the pass-through in the same run.
import { type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN } from './processes.js';

const ROUNDS = 4;

const THREE_WINDOWS = [
  { period: '5h', quota: 1_000_000_000_000 },
  { period: 'day', requests: 1_000_000_000 },
  { period: 'week', tokens: 1_000_000_000_000 },
];

/** The budgets section of BENCHMARKS.md (markdown). */
export async function budgetsSection(hub: Target, passthrough: Target, seconds: number): Promise<string> {
  const response = await fetch(`${hub.base}/api/token/`, {
    method: 'POST',
    headers: { authorization: BENCH_ROOT_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'bench budgets',
      expired_time: -1,
      unlimited_quota: true,
      setting: { budgets: THREE_WINDOWS },
    }),
  });
  const created = (await response.json()) as { data: { key: string } };
  const budgeted: Target = { ...hub, name: 'three windows', headers: { authorization: `Bearer ${created.data.key}` } };
  const targets = [passthrough, hub, budgeted];
  for (const target of targets) await throughput(target, 16, 2); // warm-up
  const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      runs[index]?.push(await throughput(targets[index] as Target, 64, seconds / 2));
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpu = runs.map((measured) => mean(measured.map((run) => run.cpuMicrosPerRequest)));
  const rps = runs.map((measured) => mean(measured.map((run) => run.rps)));
  const errors = runs.map((measured) => measured.reduce((sum, run) => sum + run.errors, 0));
  const [base = 0, plain = 0, windows = 0] = cpu;
  const row = (index: number, name: string, cost: string) =>
    `| ${name} | ${(rps[index] ?? 0).toFixed(0)} | ${(cpu[index] ?? 0).toFixed(0)} µs | ${((cpu[index] ?? 0) - base).toFixed(0)} µs | ${cost} | ${errors[index]} |`;
  return `## Budgets per window\n\nOne One Hub process on SQLite, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s per key, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). The budgets' cost is the difference between a key with three windows (5 hours of money, a day of requests, a week of tokens; each request holds on all three before the upstream and settles after it) and a key with none.\n\n| Key | Requests/s | CPU per request | Above the pass-through | The budgets' cost | Errors |\n|---|---|---|---|---|---|\n${row(1, 'no budget', '')}\n${row(2, 'three windows', `${(windows - plain).toFixed(0)} µs`)}\n`;
}
