// Part of `npm run bench`: what cache affinity costs on the request path (issue 34). One One Hub
// process, one key, the same chat (no client hint, so the conversation is named by the digest of
// its prompt), with CacheAffinitySeconds at 600 and at 0, alternating with the pass-through.
import { alternatingRuns, type Target } from './measure.js';
import { BENCH_ROOT_TOKEN } from './processes.js';

const ROUNDS = 4;

async function setAffinitySeconds(hub: Target, value: number): Promise<void> {
  const response = await fetch(`${hub.base}/api/option/`, {
    method: 'PUT',
    headers: { authorization: BENCH_ROOT_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'CacheAffinitySeconds', value: String(value) }),
  });
  if (!response.ok) throw new Error(`CacheAffinitySeconds: ${response.status} ${await response.text()}`);
}

/** The cache affinity section of BENCHMARKS.md (markdown); leaves affinity at its default (600 s). */
export async function affinitySection(hub: Target, passthrough: Target, seconds: number): Promise<string> {
  const off: Target = { ...hub, name: 'affinity off' };
  const on: Target = { ...hub, name: 'affinity on' };
  const measured = await alternatingRuns([passthrough, off, on], ROUNDS, seconds / 2, async (target) => {
    if (target === off) await setAffinitySeconds(hub, 0);
    if (target === on) await setAffinitySeconds(hub, 600);
  });
  const [base, without, withPins] = measured;
  const row = (name: string, run: (typeof measured)[number] | undefined, cost: string) =>
    `| ${name} | ${(run?.rps ?? 0).toFixed(0)} | ${(run?.cpu ?? 0).toFixed(0)} µs | ${((run?.cpu ?? 0) - (base?.cpu ?? 0)).toFixed(0)} µs | ${cost} | ${run?.errors ?? 0} |`;
  const cost = `${((withPins?.cpu ?? 0) - (without?.cpu ?? 0)).toFixed(0)} µs`;
  return `## Cache affinity\n\nOne One Hub process on SQLite, 64 concurrent non-stream chats with no client hint (the conversation is named by a SHA-256 digest of its system prompt and first message, then looked up and re-pinned in the process's pin map), ${ROUNDS} runs of ${seconds / 2} s per setting, alternating with the pass-through in rotating order (${(base?.cpu ?? 0).toFixed(0)} µs of CPU per request in the same slices). Affinity's cost is the difference between \`CacheAffinitySeconds\` 600 (the default) and 0. Pins are kept in memory, so no request waits on Redis or the database for them.\n\n| Cache affinity | Requests/s | CPU per request | Above the pass-through | Affinity's cost | Errors |\n|---|---|---|---|---|---|\n${row('off (0)', without, '')}\n${row('on (600 s)', withPins, cost)}\n`;
}
