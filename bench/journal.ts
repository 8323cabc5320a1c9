// Part of `npm run bench`: what the crash journal costs. Fresh One Hub processes with the journal
// off, on (the default) and on with a disk flush per write, alternating with the pass-through.
import { type Target, throughput } from './measure.js';
import { BENCH_ROOT_TOKEN, type Child, startOneHub } from './processes.js';
import { prepareOneHub } from './setup.js';

const ROUNDS = 4;

const VARIANTS: Array<{ name: string; environment: Record<string, string> }> = [
  { name: 'JOURNAL=off', environment: { JOURNAL: 'off' } },
  { name: 'journal on (default, JOURNAL_FSYNC_MS=1000)', environment: {} },
  { name: 'journal on, JOURNAL_FSYNC_MS=0', environment: { JOURNAL_FSYNC_MS: '0' } },
];

/** The journal section of BENCHMARKS.md (markdown). */
export async function journalSection(
  root: string,
  upstreamUrl: string,
  passthrough: Target,
  seconds: number,
): Promise<string> {
  const children: Child[] = [];
  try {
    const targets: Target[] = [passthrough];
    for (const variant of VARIANTS) {
      const child = await startOneHub(root, variant.environment);
      children.push(child);
      const key = await prepareOneHub(child.url, BENCH_ROOT_TOKEN, upstreamUrl);
      targets.push({ name: variant.name, base: child.url, headers: { authorization: `Bearer ${key}` }, child });
    }
    for (const target of targets) await throughput(target, 16, 2); // warm-up
    // Alternating slices, so every variant and the pass-through get the machine's good and bad moments.
    const runs = targets.map(() => [] as Awaited<ReturnType<typeof throughput>>[]);
    // Each round starts at another target, so none always runs right after the same neighbour.
    for (let round = 0; round < ROUNDS; round++) {
      for (let step = 0; step < targets.length; step++) {
        const index = (round + step) % targets.length;
        runs[index]?.push(await throughput(targets[index] as Target, 64, seconds / 2));
      }
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const cpu = runs.map((measured) => mean(measured.map((run) => run.cpuMicrosPerRequest)));
    const [base = 0, off = 0] = cpu;
    const rows = targets.slice(1).map((target, offset) => {
      const index = offset + 1;
      const measured = runs[index] ?? [];
      const own = cpu[index] ?? 0;
      const errors = measured.reduce((sum, run) => sum + run.errors, 0);
      const cost = index === 1 ? '' : `${(own - off).toFixed(0)} µs`;
      return `| ${target.name} | ${mean(measured.map((run) => run.rps)).toFixed(0)} | ${own.toFixed(0)} µs | ${(own - base).toFixed(0)} µs | ${cost} | ${errors} |`;
    });
    return `## The crash journal\n\nThree fresh One Hub processes on SQLite, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s each, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). The journal's cost is the difference to JOURNAL=off; with JOURNAL_FSYNC_MS=0 every write waits for the disk, which shows in latency more than in CPU.\n\n| Variant | Requests/s | CPU per request | Above the pass-through | The journal's cost | Errors |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
  } finally {
    await Promise.allSettled(children.map((child) => child.stop()));
  }
}
