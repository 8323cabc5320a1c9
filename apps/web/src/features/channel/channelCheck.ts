import { isRecord } from '@one-hub/contracts';

/** One verdict of a probe (reference §1.8): 0 failed, 1 passed, 2 unknown. */
export interface CheckResult {
  name: string;
  status: number;
  remark: string;
}

/** One probe sent to the model, its verdicts and the upstream's raw answer (key masked by the server). */
export interface CheckProcess {
  name: string;
  results: CheckResult[];
  response: string;
}

export interface ModelCheck {
  model: string;
  process: CheckProcess[];
}

export type CheckFrame = { type: 'result'; data: ModelCheck } | { type: 'heartbeat' } | { type: 'done' };

export type CheckOutcome = 'passed' | 'failed' | 'unknown';

export function outcomeOf(status: number): CheckOutcome {
  if (status === 1) return 'passed';
  if (status === 0) return 'failed';
  return 'unknown';
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function toResult(value: unknown): CheckResult | undefined {
  if (!isRecord(value)) return undefined;
  return {
    name: text(value.name),
    status: typeof value.status === 'number' ? value.status : 2,
    remark: text(value.remark),
  };
}

function toProcess(value: unknown): CheckProcess | undefined {
  if (!isRecord(value)) return undefined;
  const results = Array.isArray(value.results) ? value.results.map(toResult) : [];
  return {
    name: text(value.name),
    results: results.filter((result) => result !== undefined),
    response: text(value.response),
  };
}

/**
 * Reads one event of `POST /api/sse/channel/check`; anything else (a foreign or broken event) is
 * undefined and skipped, so one odd line does not end the check.
 */
export function parseCheckFrame(data: string): CheckFrame | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(frame)) return undefined;
  if (frame.type === 'heartbeat') return { type: 'heartbeat' };
  if (frame.type === 'done') return { type: 'done' };
  if (frame.type !== 'result' || !isRecord(frame.data) || typeof frame.data.model !== 'string') return undefined;
  const steps = Array.isArray(frame.data.process) ? frame.data.process.map(toProcess) : [];
  return {
    type: 'result',
    data: { model: frame.data.model, process: steps.filter((step) => step !== undefined) },
  };
}

/** How many verdicts of one model passed, failed or stayed unknown. */
export function tallyChecks(check: ModelCheck): Record<CheckOutcome, number> {
  const tally = { passed: 0, failed: 0, unknown: 0 };
  for (const step of check.process) {
    for (const result of step.results) tally[outcomeOf(result.status)] += 1;
  }
  return tally;
}

/**
 * A model with any failed verdict failed; otherwise one pass is enough (an upstream that reports no
 * usage is not a broken one); a model with no verdict but unknowns stays unknown.
 */
export function modelOutcome(check: ModelCheck): CheckOutcome {
  const tally = tallyChecks(check);
  if (tally.failed > 0) return 'failed';
  return tally.passed > 0 ? 'passed' : 'unknown';
}
