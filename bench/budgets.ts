// Part of `npm run bench`: what budgets per window cost on the request path (issue 33). One One Hub
// process, two keys: one with no budget, one with three windows (5 hours of money, a day of requests,
// a week of tokens) that the load never reaches, alternating with the pass-through in the same run.
import { alternatingRuns, type Target } from './measure.js';
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
  const measured = await alternatingRuns([passthrough, hub, budgeted], ROUNDS, seconds / 2);
  const cpu = measured.map((run) => run.cpu);
  const rps = measured.map((run) => run.rps);
  const errors = measured.map((run) => run.errors);
  const [base = 0, plain = 0, windows = 0] = cpu;
  const row = (index: number, name: string, cost: string) =>
    `| ${name} | ${(rps[index] ?? 0).toFixed(0)} | ${(cpu[index] ?? 0).toFixed(0)} µs | ${((cpu[index] ?? 0) - base).toFixed(0)} µs | ${cost} | ${errors[index]} |`;
  return `## Budgets per window\n\nOne One Hub process on SQLite, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s per key, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). The budgets' cost is the difference between a key with three windows (5 hours of money, a day of requests, a week of tokens; each request holds on all three before the upstream and settles after it) and a key with none.\n\n| Key | Requests/s | CPU per request | Above the pass-through | The budgets' cost | Errors |\n|---|---|---|---|---|---|\n${row(1, 'no budget', '')}\n${row(2, 'three windows', `${(windows - plain).toFixed(0)} µs`)}\n`;
}
