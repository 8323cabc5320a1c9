import type { ExtraTokenKind } from '@one-hub/contracts';
import type { Price } from '../../domain/prices.js';

export { priceToUsd } from '@one-hub/contracts';
// The relay's billing code names prices from here; the type itself is shared with the price API.
export type { Price };

/**
 * The billing arithmetic of the relay, free of I/O. A ratio of 1 means 1 quota per token
 * ($0.002 per 1K tokens); a group ratio scales both sides of a price.
 */

/**
 * Token counts as upstreams report them. `prompt_tokens` and `completion_tokens` already include
 * every token listed in the details; the details only re-price a part of them.
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: {
    cached_tokens?: number;
    audio_tokens?: number;
    text_tokens?: number;
    image_tokens?: number;
    cached_write_tokens?: number;
    cached_read_tokens?: number;
  };
  completion_tokens_details?: {
    reasoning_tokens?: number;
    audio_tokens?: number;
    text_tokens?: number;
    image_tokens?: number;
  };
}

type Side = 'prompt' | 'completion';
type PromptDetail = keyof NonNullable<Usage['prompt_tokens_details']>;
type CompletionDetail = keyof NonNullable<Usage['completion_tokens_details']>;

interface ExtraTokenRule {
  side: Side;
  defaultRatio: number;
}

/** Which side each kind is counted on, and its ratio when the price sets none. */
export const EXTRA_TOKEN_RULES: Readonly<Record<ExtraTokenKind, ExtraTokenRule>> = {
  cached_tokens: { side: 'prompt', defaultRatio: 1 },
  cached_write_tokens: { side: 'prompt', defaultRatio: 1.25 },
  cached_read_tokens: { side: 'prompt', defaultRatio: 0.1 },
  input_audio_tokens: { side: 'prompt', defaultRatio: 1 },
  output_audio_tokens: { side: 'completion', defaultRatio: 1 },
  reasoning_tokens: { side: 'completion', defaultRatio: 1 },
  input_text_tokens: { side: 'prompt', defaultRatio: 1 },
  output_text_tokens: { side: 'completion', defaultRatio: 1 },
  input_image_tokens: { side: 'prompt', defaultRatio: 1 },
  output_image_tokens: { side: 'completion', defaultRatio: 1 },
};

const PROMPT_DETAIL_KINDS: ReadonlyArray<[PromptDetail, ExtraTokenKind]> = [
  ['cached_tokens', 'cached_tokens'],
  ['cached_write_tokens', 'cached_write_tokens'],
  ['cached_read_tokens', 'cached_read_tokens'],
  ['audio_tokens', 'input_audio_tokens'],
  ['text_tokens', 'input_text_tokens'],
  ['image_tokens', 'input_image_tokens'],
];
const COMPLETION_DETAIL_KINDS: ReadonlyArray<[CompletionDetail, ExtraTokenKind]> = [
  ['reasoning_tokens', 'reasoning_tokens'],
  ['audio_tokens', 'output_audio_tokens'],
  ['text_tokens', 'output_text_tokens'],
  ['image_tokens', 'output_image_tokens'],
];

/**
 * Ratios such as 0.57 are not exact in binary, so 100 × 0.57 is 56.99999999999999; rounding to
 * a millionth first keeps truncation and ceiling from being off by one quota on such noise.
 */
function withoutBinaryNoise(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function truncate(value: number): number {
  return Math.trunc(withoutBinaryNoise(value));
}

/** Upstream counts are untrusted: anything but a finite non-negative number counts as 0. */
function tokenCount(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.trunc(value) : 0;
}

export function ratios(price: Price, groupRatio: number): { inputRatio: number; outputRatio: number } {
  const inputRatio = Math.max(price.input, 0) * groupRatio;
  const outputRatio = price.type === 'times' ? 0 : Math.max(price.output, 0) * groupRatio;
  return { inputRatio, outputRatio };
}

/** What a per-call (`times`) price costs: 1000 × input ratio. */
function perCallQuota(inputRatio: number): number {
  return truncate(1000 * inputRatio);
}

/**
 * The most completion tokens a reservation holds for, whatever the client's `max_tokens` or the
 * learned estimate says: a client asking for 100K tokens is not refused for a balance that pays
 * for the answer it will most likely get. An answer longer than its hold is still charged in full
 * from what the balance has left (settlement never takes more than there is).
 */
export const RESERVED_COMPLETION_TOKENS_CAP = 4096;

/**
 * The quota held before calling upstream: the counted prompt plus the completion the request may
 * produce, priced as settlement will price them, so a request whose counts come true is held
 * exactly what it will be charged. The completion is `completionTokens` (the client's limit or
 * the learned estimate, completion-estimates.ts) when known, else `preConsumedQuota`; either
 * capped at RESERVED_COMPLETION_TOKENS_CAP tokens' worth. Always reserved in full: there is no
 * skip for users with a large balance, so concurrent requests cannot overdraw an account.
 */
export function reservationQuota(input: {
  price: Price;
  groupRatio: number;
  promptTokens: number;
  /** Completion tokens to hold for; undefined when neither the client nor this node's answers tell. */
  completionTokens?: number | undefined;
  /** What is held for the completion when `completionTokens` is unknown (PreConsumedQuota). */
  preConsumedQuota: number;
}): number {
  const { price, groupRatio } = input;
  const { inputRatio, outputRatio } = ratios(price, groupRatio);
  if (price.type === 'times') return perCallQuota(inputRatio);
  if (price.input === 0 && price.output === 0) return 0;
  const cap = RESERVED_COMPLETION_TOKENS_CAP;
  const completionTokens = input.completionTokens === undefined ? 0 : Math.min(tokenCount(input.completionTokens), cap);
  // No token is re-priced by an extra ratio here: the counts are totals, as settlement bills them.
  const held = tokensQuota(price, tokenCount(input.promptTokens), completionTokens, inputRatio, outputRatio);
  if (input.completionTokens !== undefined) return held;
  const fallback = Math.max(0, Math.trunc(input.preConsumedQuota));
  return held + Math.min(fallback, Math.ceil(withoutBinaryNoise(cap * outputRatio)));
}

export interface ExtraTokenCharge {
  count: number;
  ratio: number;
}

export interface SettledQuota {
  quota: number;
  /** Raw counts as reported, for the log; the adjusted ones only exist inside the computation. */
  promptTokens: number;
  completionTokens: number;
  /** Keyed by extra-token kind (an `ExtraTokenKind`); only kinds the usage reported. */
  extraTokens: Record<string, ExtraTokenCharge>;
}

/** Every re-priced kind the usage reports, with the ratio that applies to it. */
export function extraTokenCharges(price: Price, usage: Usage): Partial<Record<ExtraTokenKind, ExtraTokenCharge>> {
  const charges: Partial<Record<ExtraTokenKind, ExtraTokenCharge>> = {};
  const add = (kind: ExtraTokenKind, value: number | undefined) => {
    const count = tokenCount(value);
    if (count === 0) return;
    const configured = price.extra_ratios[kind];
    const ratio = configured !== undefined && configured >= 0 ? configured : EXTRA_TOKEN_RULES[kind].defaultRatio;
    charges[kind] = { count, ratio };
  };
  const promptDetails = usage.prompt_tokens_details;
  if (promptDetails) for (const [field, kind] of PROMPT_DETAIL_KINDS) add(kind, promptDetails[field]);
  const completionDetails = usage.completion_tokens_details;
  if (completionDetails) for (const [field, kind] of COMPLETION_DETAIL_KINDS) add(kind, completionDetails[field]);
  return charges;
}

/** The final charge for a finished call, from the usage the upstream reported (or we counted). */
export function settledQuota(input: { price: Price; groupRatio: number; usage: Usage }): SettledQuota {
  const { price, groupRatio, usage } = input;
  const { inputRatio, outputRatio } = ratios(price, groupRatio);
  const promptTokens = tokenCount(usage.prompt_tokens);
  const completionTokens = tokenCount(usage.completion_tokens);
  const extraTokens: Record<string, ExtraTokenCharge> = {};

  let prompt = promptTokens;
  let completion = completionTokens;
  for (const [kind, charge] of Object.entries(extraTokenCharges(price, usage))) {
    if (!charge) continue;
    extraTokens[kind] = charge;
    // Only the difference from the base price is added: the tokens are already in the totals.
    const adjustment = truncate(charge.count * (charge.ratio - 1));
    if (EXTRA_TOKEN_RULES[kind as ExtraTokenKind].side === 'prompt') prompt += adjustment;
    else completion += adjustment;
  }

  let quota =
    price.type === 'times' ? perCallQuota(inputRatio) : tokensQuota(price, prompt, completion, inputRatio, outputRatio);
  // A priced call costs at least 1 (tokensQuota applies the same rule to token prices).
  if (price.type === 'times' && inputRatio !== 0 && quota <= 0) quota = 1;
  // Discounts larger than the tokens they apply to must never turn a charge into a refund.
  return { quota: Math.max(quota, 0), promptTokens, completionTokens, extraTokens };
}

/** Token counts (after re-pricing) at a token price: rounded up, at least 1 when the input is priced. */
function tokensQuota(price: Price, prompt: number, completion: number, inputRatio: number, outputRatio: number) {
  let quota = Math.ceil(withoutBinaryNoise(prompt * inputRatio + completion * outputRatio));
  if (inputRatio !== 0 && quota <= 0) quota = 1;
  if (price.type === 'tokens' && prompt + completion === 0) quota = 0;
  return quota;
}
