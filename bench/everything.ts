// Part of `npm run bench`: One Hub with every request-path feature of the earlier issues on at once
// (issue 37), against the same process's plain key and the pass-through, in rotating slices: the
// crash journal, metrics, channel health with the latency strategy over two channels, cache
// affinity, and a key with its own balance, RPM, TPM and three budget windows it never reaches.
// Tracing stays off (its cost is the tracing section's).
import { alternatingRuns, type Target } from './measure.js';
import { BENCH_ROOT_TOKEN, type Child, startOneHub } from './processes.js';
import { callApi, prepareOneHub } from './setup.js';

const ROUNDS = 4;
const METRICS = { METRICS_USER: 'bench', METRICS_PASSWORD: 'bench-metrics-password' };
const GROUP = 'bench-all';

/** A group on the latency strategy served by two channels, and a key in it with every limit set. */
export async function everythingKey(base: string, upstreamUrl: string): Promise<string> {
  await callApi(base, 'POST', '/api/user_group/', {
    symbol: GROUP,
    name: GROUP,
    ratio: 1,
    api_rate: 0,
    public: true,
    routing_strategy: 'latency',
  });
  for (const name of ['bench-all-a', 'bench-all-b']) {
    await callApi(base, 'POST', '/api/channel/', {
      name,
      type: 1,
      key: 'sk-bench',
      base_url: upstreamUrl,
      models: 'gpt-4o-mini',
      group: GROUP,
    });
  }
  const created = (await callApi(base, 'POST', '/api/token/', {
    name: 'bench everything',
    expired_time: -1,
    unlimited_quota: false,
    remain_quota: 1_000_000_000_000,
    group: GROUP,
    setting: {
      limits: { rpm: 1_000_000, tpm: 1_000_000_000 },
      budgets: [
        { period: '5h', quota: 1_000_000_000_000 },
        { period: 'day', requests: 1_000_000_000 },
        { period: 'week', tokens: 1_000_000_000_000 },
      ],
    },
  })) as { key: string };
  return created.key;
}

/** The "every feature on" section of BENCHMARKS.md (markdown). */
export async function everythingSection(
  root: string,
  upstreamUrl: string,
  passthrough: Target,
  seconds: number,
): Promise<string> {
  let child: Child | undefined;
  try {
    child = await startOneHub(root, METRICS);
    const plainKey = await prepareOneHub(child.url, BENCH_ROOT_TOKEN, upstreamUrl);
    const allKey = await everythingKey(child.url, upstreamUrl);
    const plain: Target = {
      name: 'plain key',
      base: child.url,
      headers: { authorization: `Bearer ${plainKey}` },
      child,
    };
    const all: Target = { ...plain, name: 'every feature', headers: { authorization: `Bearer ${allKey}` } };
    const [base, plainRun, allRun] = await alternatingRuns([passthrough, plain, all], ROUNDS, seconds / 2);
    const baseCpu = base?.cpu ?? 0;
    const row = (name: string, run: typeof base, cost: string) =>
      `| ${name} | ${(run?.rps ?? 0).toFixed(0)} | ${(run?.cpu ?? 0).toFixed(0)} µs | ${((run?.cpu ?? 0) - baseCpu).toFixed(0)} µs | ${cost} | ${run?.errors ?? 0} |`;
    const extra = `${((allRun?.cpu ?? 0) - (plainRun?.cpu ?? 0)).toFixed(0)} µs`;
    return `## Every feature on (issue 37)\n\nOne One Hub process on SQLite with metrics on (METRICS_USER set) and the crash journal, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s per key, alternating with the pass-through in rotating order (${baseCpu.toFixed(0)} µs of CPU per request in the same slices). The plain key is the main table's (an unlimited key in the default group, one channel); the other key is in a group on the latency strategy with two channels (health counted on both), holds its own balance, and has an RPM and a TPM limit and three budget windows (5 hours of money, a day of requests, a week of tokens) that the load never reaches; cache affinity pins both keys' conversations (the default). Tracing is off.\n\n| Key | Requests/s | CPU per request | Above the pass-through | Over the plain key | Errors |\n|---|---|---|---|---|---|\n${row('plain key', plainRun, '')}\n${row('every feature', allRun, extra)}\n`;
  } finally {
    await child?.stop();
  }
}
