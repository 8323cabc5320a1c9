import { expect } from 'vitest';
import { lastConsumeLog, type RelayTestContext, storedQuota } from '../relay-setup.js';
import type { Json, ProviderEntry, TokenCounts } from './scenario-mock.js';

/**
 * What the contract suites expect to be billed: one price for every provider's model, with every
 * extra-token kind re-priced at a ratio of its own, so a count billed under the wrong kind (or
 * not at all) visibly changes the quota.
 */

export const PRICE = { input: 2, output: 4 };
export const EXTRA_RATIOS: Record<string, number> = {
  cached_tokens: 0.5,
  cached_read_tokens: 0.25,
  cached_write_tokens: 1.5,
  input_audio_tokens: 2,
  reasoning_tokens: 2,
  output_audio_tokens: 3,
};
const PROMPT_KINDS = new Set(['cached_tokens', 'cached_read_tokens', 'cached_write_tokens', 'input_audio_tokens']);
/** PreConsumedQuota's default: every reservation holds at least this much. */
export const PRE_CONSUMED = 500;

export interface Billing {
  prompt: number;
  completion: number;
  quota: number;
  /** Extra token kinds the log must record, with their counts (and no other kind). */
  extras: Record<string, number>;
}

/** What a provider's usage must bill: the counts its format has, priced with `EXTRA_RATIOS`. */
export function billingOf(provider: ProviderEntry, counts: TokenCounts): Billing {
  const has = (flag: true | string) => flag === true;
  const audio = has(provider.usage.audio);
  const cacheRead = provider.cacheReadKind ?? 'cached_tokens';
  const kinds: Record<string, number> = {
    [cacheRead]: has(provider.usage.cacheRead ?? true) ? counts.cacheRead : 0,
    cached_write_tokens: has(provider.usage.cacheWrite) ? counts.cacheWrite : 0,
    input_audio_tokens: audio ? counts.audioIn : 0,
    reasoning_tokens: has(provider.usage.reasoning) ? counts.reasoning : 0,
    output_audio_tokens: audio ? counts.audioOut : 0,
  };
  const extras = Object.fromEntries(Object.entries(kinds).filter(([, count]) => count > 0));
  const prompt = counts.input + counts.cacheRead + (kinds.cached_write_tokens ?? 0) + (kinds.input_audio_tokens ?? 0);
  const completion = counts.output + (kinds.reasoning_tokens ?? 0) + (kinds.output_audio_tokens ?? 0);
  let pricedPrompt = prompt;
  let pricedCompletion = completion;
  for (const [kind, count] of Object.entries(extras)) {
    const adjustment = Math.trunc(count * ((EXTRA_RATIOS[kind] ?? 1) - 1));
    if (PROMPT_KINDS.has(kind)) pricedPrompt += adjustment;
    else pricedCompletion += adjustment;
  }
  const quota = Math.ceil(pricedPrompt * PRICE.input + pricedCompletion * PRICE.output);
  return { prompt, completion, quota, extras };
}

/**
 * The newest consume log and the user's balance show exactly `billing` for `model`, charged to
 * `channelId`: the counts, the quota, and every extra-token kind with its ratio (and no other kind).
 */
export async function expectBilled(
  r: RelayTestContext,
  expected: { model: string; channelId: number; before: number; billing: Billing },
): Promise<void> {
  const { model, channelId, before, billing } = expected;
  const log = await lastConsumeLog(r);
  expect(log).toMatchObject({
    model_name: model,
    channel_id: channelId,
    prompt_tokens: billing.prompt,
    completion_tokens: billing.completion,
    quota: billing.quota,
  });
  const metadata = JSON.parse(log.metadata ?? '{}') as Json;
  const recorded = Object.fromEntries(
    Object.keys(EXTRA_RATIOS).flatMap((kind) => (kind in metadata ? [[kind, metadata[kind]]] : [])),
  );
  expect(recorded).toEqual(billing.extras);
  for (const kind of Object.keys(billing.extras)) expect(metadata[`${kind}_ratio`]).toBe(EXTRA_RATIOS[kind]);
  expect(await storedQuota(r)).toBe(before - billing.quota);
}
