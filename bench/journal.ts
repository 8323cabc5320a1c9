// Part of `npm run bench`: what the crash journal costs. Fresh One Hub processes with the journal
// off, on (the default) and on with a disk flush per write, alternating with the pass-through.
import type { Target } from './measure.js';
import { measureVariants, type Variant } from './variants.js';

const ROUNDS = 4;

const VARIANTS: Variant[] = [
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
  const { base, rows } = await measureVariants({ root, upstreamUrl, passthrough, seconds, rounds: ROUNDS }, VARIANTS);
  return `## The crash journal\n\nThree fresh One Hub processes on SQLite, 64 concurrent non-stream chats, ${ROUNDS} runs of ${seconds / 2} s each, alternating with the pass-through in rotating order (${base.toFixed(0)} µs of CPU per request in the same slices). The journal's cost is the difference to JOURNAL=off; with JOURNAL_FSYNC_MS=0 every write waits for the disk, which shows in latency more than in CPU.\n\n| Variant | Requests/s | CPU per request | Above the pass-through | The journal's cost | Errors |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
}
