import type { Json } from '@one-hub/contracts';

/**
 * How much answer a reservation holds for (issue 30). The client's own limit when it set one
 * (`max_completion_tokens`, `max_tokens`, Responses' `max_output_tokens`, Gemini's
 * `generationConfig.maxOutputTokens`); otherwise what this node learned from the model's recent
 * answers: the 95th percentile of the completion tokens of its last 100 answers, once 10 are
 * known (computed again every 8 answers). Node-local on purpose: it is a sizing hint, not money, and costs no round trip; every
 * node learns the same thing from its own share of the traffic. quota.ts caps either.
 */

/** Answers kept per model. */
const WINDOW = 100;
/** Answers seen before the estimate is trusted; until then PreConsumedQuota is held. */
export const MINIMUM_ANSWERS = 10;
/** The share of recent answers the estimate covers. */
const PERCENTILE = 0.95;
/** The percentile is computed again after this many answers, so recording costs next to nothing. */
const RECOMPUTE_EVERY = 8;
/** Models followed at most: model names may come from clients (wildcard channels). */
const MAX_MODELS = 512;

interface ModelAnswers {
  tokens: Uint32Array;
  /** Answers recorded so far (the ring holds the last WINDOW). */
  recorded: number;
  estimate: number | undefined;
}

export class CompletionEstimates {
  private readonly models = new Map<string, ModelAnswers>();

  /** One finished answer's completion tokens (as billed) for `model`. */
  record(model: string, completionTokens: number): void {
    if (!Number.isFinite(completionTokens) || completionTokens < 0) return;
    let answers = this.models.get(model);
    if (!answers) {
      if (this.models.size >= MAX_MODELS) {
        // The oldest model followed makes room; it is learned again if it comes back.
        const oldest = this.models.keys().next().value;
        if (oldest !== undefined) this.models.delete(oldest);
      }
      answers = { tokens: new Uint32Array(WINDOW), recorded: 0, estimate: undefined };
      this.models.set(model, answers);
    }
    answers.tokens[answers.recorded % WINDOW] = Math.min(Math.trunc(completionTokens), 0xffffffff);
    answers.recorded++;
    const { recorded } = answers;
    if (recorded === MINIMUM_ANSWERS || (recorded > MINIMUM_ANSWERS && recorded % RECOMPUTE_EVERY === 0)) {
      answers.estimate = percentile(answers.tokens.subarray(0, Math.min(recorded, WINDOW)));
    }
  }

  /** The completion tokens most answers of `model` fit in, or undefined while too few are known. */
  estimate(model: string): number | undefined {
    return this.models.get(model)?.estimate;
  }
}

function percentile(tokens: Uint32Array): number {
  const sorted = Uint32Array.from(tokens).sort();
  return sorted[Math.max(0, Math.ceil(PERCENTILE * sorted.length) - 1)] ?? 0;
}

const positiveCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.trunc(value) : undefined;

/** The client's own limit on the answer's tokens, in whichever surface's field it came; undefined when none. */
export function requestedCompletionTokens(fields: Json): number | undefined {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return undefined;
  const body = fields as Record<string, unknown>;
  const config = (body.generationConfig ?? body.generation_config) as Record<string, unknown> | undefined;
  return (
    positiveCount(body.max_completion_tokens) ??
    positiveCount(body.max_tokens) ??
    positiveCount(body.max_output_tokens) ??
    (config && typeof config === 'object'
      ? (positiveCount(config.maxOutputTokens) ?? positiveCount(config.max_output_tokens))
      : undefined)
  );
}
