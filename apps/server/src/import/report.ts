import type { RecordedSkip } from './progress.js';
import type { ImportOutcome, ProgressSink } from './run-import.js';

/** What the steps are called in the report (the table they fill). */
const STEP_TITLES: Record<string, string> = {
  user_inviters: 'users (inviters)',
};

/**
 * Progress on stderr: on a terminal one line per table, rewritten in place; otherwise (a log
 * file, CI) a line each time a table gains another tenth, so the output stays short.
 */
export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr): ProgressSink {
  let currentStep = '';
  let lastTenth = -1;
  return {
    update(step, done, total) {
      const line = `  ${(STEP_TITLES[step] ?? step).padEnd(18)} ${String(done).padStart(10)} / ${total ?? '?'} rows`;
      if (stream.isTTY) {
        stream.write(`${step === currentStep ? '\r' : currentStep ? '\n' : ''}${line}`);
      } else {
        const tenth = total ? Math.floor((done / total) * 10) : 10;
        if (step === currentStep && tenth === lastTenth) return;
        stream.write(`${line}\n`);
        lastTenth = tenth;
      }
      currentStep = step;
    },
  };
}

/** Ends the in-place progress line on a terminal before the report is printed. */
export function endProgress(stream: NodeJS.WriteStream = process.stderr): void {
  if (stream.isTTY) stream.write('\n');
}

function countsTable(outcome: ImportOutcome): string[] {
  const rows = outcome.steps.filter((step) => step.step !== 'not_carried');
  const lines = [`${'table'.padEnd(20)}${'read'.padStart(10)}${'written'.padStart(10)}${'skipped'.padStart(10)}`];
  for (const step of rows) {
    const title = STEP_TITLES[step.step] ?? step.step;
    lines.push(
      `${title.padEnd(20)}${String(step.read).padStart(10)}${String(step.written).padStart(10)}${String(step.skipped).padStart(10)}`,
    );
  }
  return lines;
}

/** `users:alice: reason`, or `logs (1200 rows): reason` for an entry that sums up several rows. */
function describeSkip(skip: RecordedSkip): string {
  return `  ${skip.row}${skip.count > 1 ? ` (${skip.count} rows)` : ''}: ${skip.reason}`;
}

/** The final report on stdout: counts per table, then every skip with its reason. */
export function formatReport(outcome: ImportOutcome): string {
  const heading = outcome.alreadyDone
    ? `This source was already imported completely (${outcome.product}); nothing was written. The report of that import:`
    : `Imported ${outcome.version} (${outcome.mode === 'fresh' ? 'into an empty database, ids kept' : 'merged into the existing data'}${outcome.resumed ? ', resumed after an interruption' : ''}).`;
  const notCarried = outcome.skips.filter((skip) => skip.step === 'not_carried');
  const notes = outcome.skips.filter((skip) => skip.step !== 'not_carried' && skip.count === 0);
  const skipped = outcome.skips.filter((skip) => skip.step !== 'not_carried' && skip.count > 0);
  const lines = [heading, '', ...countsTable(outcome)];
  if (skipped.length > 0) lines.push('', 'Skipped (not imported):', ...skipped.map(describeSkip));
  if (notes.length > 0) lines.push('', 'Imported with a change:', ...notes.map(describeSkip));
  if (notCarried.length > 0) {
    const rows = (count: number) => (count === 0 ? 'empty' : `${count} row${count === 1 ? '' : 's'}`);
    lines.push(
      '',
      'Not carried over:',
      ...notCarried.map((skip) => `  ${skip.row} (${rows(skip.count)}): ${skip.reason}`),
    );
  }
  return `${lines.join('\n')}\n`;
}
