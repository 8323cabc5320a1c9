// Fresh One Hub processes that differ only in their environment, measured against each other and
// the pass-through in the same run (the journal and tracing sections).
import { type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN, type Child, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

export interface Variant {
  name: string;
  environment: Record<string, string>;
}

/**
 * One process per variant, 64 concurrent non-stream chats in `rounds` rotating slices with the
 * pass-through, so each gets the machine's good and bad moments. Answers the pass-through's CPU
 * per request and one table row per variant: requests/s, CPU per request, above the pass-through,
 * cost over the first variant, errors.
 */
export async function measureVariants(
  setup: { root: string; upstreamUrl: string; passthrough: Target; seconds: number; rounds: number },
  variants: Variant[],
): Promise<{ base: number; rows: string[] }> {
  const children: Child[] = [];
  try {
    const targets: Target[] = [setup.passthrough];
    for (const variant of variants) {
      const child = await startOneHub(setup.root, variant.environment);
      children.push(child);
      const key = await prepareOneHub(child.url, BENCH_ROOT_TOKEN, setup.upstreamUrl);
      targets.push({ name: variant.name, base: child.url, headers: { authorization: `Bearer ${key}` }, child });
    }
    for (const target of targets) await throughput(target, 16, 2); // warm-up
    const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
    // Each round starts at another target, so none always runs right after the same neighbour.
    for (let round = 0; round < setup.rounds; round++) {
      for (let step = 0; step < targets.length; step++) {
        const index = (round + step) % targets.length;
        runs[index]?.push(await throughput(targets[index] as Target, 64, setup.seconds / 2));
      }
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const cpu = runs.map((measured) => mean(measured.map((run) => run.cpuMicrosPerRequest)));
    const [base = 0, reference = 0] = cpu;
    const rows = targets.slice(1).map((target, offset) => {
      const index = offset + 1;
      const measured = runs[index] ?? [];
      const own = cpu[index] ?? 0;
      const errors = measured.reduce((sum, run) => sum + run.errors, 0);
      const cost = index === 1 ? '' : `${(own - reference).toFixed(0)} µs`;
      return `| ${target.name} | ${mean(measured.map((run) => run.rps)).toFixed(0)} | ${own.toFixed(0)} µs | ${(own - base).toFixed(0)} µs | ${cost} | ${errors} |`;
    });
    return { base, rows };
  } finally {
    await Promise.allSettled(children.map((child) => child.stop()));
  }
}
