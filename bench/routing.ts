// Part of `npm run bench`: what channel health and each balancing strategy cost on the request path
// (issue 34). One One Hub process, two more channels to the same upstream in one priority tier, one
// key per strategy's group; health off (today's routing before issue 34) and on, in rotating slices
// with the pass-through in the same run.
import { type Target, throughput } from './measure.js';
import { callApi } from './setup.js';

const ROUNDS = 3;
const STRATEGIES = ['weighted', 'latency', 'least_in_flight'] as const;

interface Slice {
  name: string;
  target: Target;
  /** ChannelHealthEnabled during the slice. */
  health: boolean;
}

const call = (hub: Target, method: string, path: string, body?: unknown) => callApi(hub.base, method, path, body);

/** A group per strategy (no rate limit), two channels serving all of them, and a key in each group. */
async function keysPerStrategy(hub: Target): Promise<Record<(typeof STRATEGIES)[number], Target>> {
  const groups = STRATEGIES.map((strategy) => `bench-${strategy.replaceAll('_', '-')}`);
  for (const [index, strategy] of STRATEGIES.entries()) {
    const symbol = groups[index];
    await call(hub, 'POST', '/api/user_group/', {
      symbol,
      name: symbol,
      ratio: 1,
      api_rate: 0,
      public: true,
      routing_strategy: strategy,
    });
  }
  const channel = (name: string) => ({
    name,
    type: 1,
    key: 'sk-bench',
    models: 'gpt-4o-mini',
    group: groups.join(','),
  });
  const upstream = ((await call(hub, 'GET', '/api/channel/?size=1')) as { data: Array<{ base_url: string }> }).data[0];
  for (const name of ['bench-a', 'bench-b']) {
    await call(hub, 'POST', '/api/channel/', { ...channel(name), base_url: upstream?.base_url });
  }
  const targets = {} as Record<(typeof STRATEGIES)[number], Target>;
  for (const [index, strategy] of STRATEGIES.entries()) {
    const created = (await call(hub, 'POST', '/api/token/', {
      name: `bench ${strategy}`,
      expired_time: -1,
      unlimited_quota: true,
      group: groups[index],
    })) as { key: string };
    targets[strategy] = { ...hub, name: strategy, headers: { authorization: `Bearer ${created.key}` } };
  }
  return targets;
}

/** The routing section of BENCHMARKS.md (markdown). */
export async function routingSection(hub: Target, passthrough: Target, seconds: number): Promise<string> {
  const keys = await keysPerStrategy(hub);
  const slices: Slice[] = [
    { name: 'weighted, health off (before issue 34)', target: keys.weighted, health: false },
    { name: 'weighted, health on', target: keys.weighted, health: true },
    { name: 'latency, health on', target: keys.latency, health: true },
    { name: 'least_in_flight, health on', target: keys.least_in_flight, health: true },
  ];
  const setHealth = (on: boolean) =>
    call(hub, 'PUT', '/api/option/', { key: 'ChannelHealthEnabled', value: String(on) });
  const targets: Array<Slice | { name: string; target: Target; health?: undefined }> = [
    { name: 'pass-through', target: passthrough },
    ...slices,
  ];
  const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
  for (const slice of targets) {
    if (slice.health !== undefined) await setHealth(slice.health);
    await throughput(slice.target, 16, 2); // warm-up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      const slice = targets[index] as (typeof targets)[number];
      if (slice.health !== undefined) await setHealth(slice.health);
      runs[index]?.push(await throughput(slice.target, 64, seconds / 2));
    }
  }
  await setHealth(true);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpu = runs.map((measured) => mean(measured.map((run) => run.cpuMicrosPerRequest)));
  const rps = runs.map((measured) => mean(measured.map((run) => run.rps)));
  const errors = runs.map((measured) => measured.reduce((sum, run) => sum + run.errors, 0));
  const [base = 0, today = 0] = cpu;
  const rows = slices.map((slice, offset) => {
    const index = offset + 1;
    const own = cpu[index] ?? 0;
    const cost = offset === 0 ? '' : `${(own - today).toFixed(1)} µs`;
    return `| ${slice.name} | ${(rps[index] ?? 0).toFixed(0)} | ${own.toFixed(0)} µs | ${(own - base).toFixed(0)} µs | ${cost} | ${errors[index]} |`;
  });
  return `## Channel health and balancing strategies\n\nOne One Hub process on SQLite, two channels to the same upstream in one priority tier, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s per row, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). Health off is the routing before issue 34 (weighted random, nothing counted); each other row's cost is its difference from that one.\n\n| Routing | Requests/s | CPU per request | Above the pass-through | Cost over health off | Errors |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
}
