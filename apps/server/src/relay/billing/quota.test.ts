import { describe, expect, it } from 'vitest';
import { providerType } from '../../domain/channel-types/registry.js';
import {
  type Price,
  priceToUsd,
  RESERVED_COMPLETION_TOKENS_CAP,
  ratios,
  reservationQuota,
  settledQuota,
} from './quota.js';

function price(fields: Partial<Price> & Pick<Price, 'input' | 'output'>): Price {
  return {
    model: 'test-model',
    type: 'tokens',
    channel_type: providerType('openai'),
    locked: false,
    extra_ratios: {},
    ...fields,
  };
}

// A gpt-4o-like price: 2.5 in, 7.5 out, cached prompt tokens at half price.
const gpt4o = price({ input: 2.5, output: 7.5, extra_ratios: { cached_tokens: 0.5, reasoning_tokens: 2 } });

describe('ratios', () => {
  it('scales both sides by the group ratio', () => {
    expect(ratios(gpt4o, 0.8)).toEqual({ inputRatio: 2, outputRatio: 6 });
  });

  it('ignores the output side of a per-call price and clamps negative prices to 0', () => {
    expect(ratios(price({ type: 'times', input: 20, output: 40 }), 1)).toEqual({ inputRatio: 20, outputRatio: 0 });
    expect(ratios(price({ input: -3, output: -1 }), 1)).toEqual({ inputRatio: 0, outputRatio: 0 });
  });
});

describe('reservationQuota', () => {
  it('holds the prompt at the input ratio plus the pre-consumed amount when the answer length is unknown', () => {
    // 1000 × 2.5 × 0.8 = 2000, + 500.
    expect(reservationQuota({ price: gpt4o, groupRatio: 0.8, promptTokens: 1000, preConsumedQuota: 500 })).toBe(2500);
  });

  it('prices the prompt as settlement will, rounded up', () => {
    // 333 × 0.075 = 24.975 → 25 (a charge of 24.975 is 25), + 500.
    const mini = price({ input: 0.075, output: 0.3 });
    expect(reservationQuota({ price: mini, groupRatio: 1, promptTokens: 333, preConsumedQuota: 500 })).toBe(525);
  });

  it('holds exactly what a request will be charged when its counts come true', () => {
    // The client's max_tokens (or the learned estimate) instead of the pre-consumed amount.
    const held = reservationQuota({
      price: gpt4o,
      groupRatio: 0.8,
      promptTokens: 1000,
      completionTokens: 500,
      preConsumedQuota: 500,
    });
    const charged = settledQuota({
      price: gpt4o,
      groupRatio: 0.8,
      usage: { prompt_tokens: 1000, completion_tokens: 500 },
    });
    // 1000 × 2 + 500 × 6.
    expect(held).toBe(5000);
    expect(held).toBe(charged.quota);
  });

  it(`holds at most ${RESERVED_COMPLETION_TOKENS_CAP} completion tokens, whatever the client asks for`, () => {
    const asked = { price: gpt4o, groupRatio: 1, promptTokens: 10, preConsumedQuota: 500 };
    const capped = 10 * 2.5 + RESERVED_COMPLETION_TOKENS_CAP * 7.5;
    expect(reservationQuota({ ...asked, completionTokens: 100_000 })).toBe(capped);
    expect(reservationQuota({ ...asked, completionTokens: RESERVED_COMPLETION_TOKENS_CAP })).toBe(capped);
    expect(reservationQuota({ ...asked, completionTokens: 100 })).toBe(10 * 2.5 + 100 * 7.5);
  });

  it('holds the pre-consumed amount only up to the capped completion’s worth', () => {
    // 4096 tokens at 0.1 are worth 410 (409.6 rounded up): less than the 500 pre-consumed.
    const cheap = price({ input: 0.1, output: 0.1 });
    expect(reservationQuota({ price: cheap, groupRatio: 1, promptTokens: 10, preConsumedQuota: 500 })).toBe(1 + 410);
    // A model whose answers cost nothing (embeddings) holds only its prompt.
    const embedding = price({ input: 0.5, output: 0 });
    expect(reservationQuota({ price: embedding, groupRatio: 1, promptTokens: 100, preConsumedQuota: 500 })).toBe(50);
  });

  it('reserves the whole call for a per-call price, whatever the prompt', () => {
    const image = price({ type: 'times', input: 50, output: 0 });
    expect(reservationQuota({ price: image, groupRatio: 0.5, promptTokens: 9999, preConsumedQuota: 500 })).toBe(25000);
  });

  it('reserves nothing for a free model', () => {
    const free = price({ input: 0, output: 0 });
    expect(reservationQuota({ price: free, groupRatio: 1, promptTokens: 1000, preConsumedQuota: 500 })).toBe(0);
  });

  it('still reserves the pre-consumed amount when only the output is priced', () => {
    const outputOnly = price({ input: 0, output: 2 });
    expect(reservationQuota({ price: outputOnly, groupRatio: 1, promptTokens: 1000, preConsumedQuota: 500 })).toBe(500);
  });

  it('does not lose a quota to binary noise', () => {
    // 1000 × 0.01 × 0.7 is 6.999999999999999 in floating point; the price means 7.
    const odd = price({ type: 'times', input: 0.01, output: 0 });
    expect(reservationQuota({ price: odd, groupRatio: 0.7, promptTokens: 0, preConsumedQuota: 0 })).toBe(7);
  });
});

describe('settledQuota', () => {
  it('bills the worked example of the design', () => {
    // inputRatio 2.5 × 0.8 = 2, outputRatio 7.5 × 0.8 = 6.
    // prompt 1000, of which 200 cached at 0.5: 1000 + int(200 × (0.5 − 1)) = 900.
    // completion 500, of which 100 reasoning at 2: 500 + int(100 × (2 − 1)) = 600.
    // ceil(900 × 2 + 600 × 6) = 1800 + 3600 = 5400.
    const settlement = settledQuota({
      price: gpt4o,
      groupRatio: 0.8,
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 500,
        prompt_tokens_details: { cached_tokens: 200 },
        completion_tokens_details: { reasoning_tokens: 100 },
      },
    });
    expect(settlement).toEqual({
      quota: 5400,
      promptTokens: 1000,
      completionTokens: 500,
      extraTokens: { cached_tokens: { count: 200, ratio: 0.5 }, reasoning_tokens: { count: 100, ratio: 2 } },
    });
  });

  it('takes the ceiling of the total and truncates each adjustment towards zero', () => {
    // 201 cached at 0.5: int(−100.5) = −100, so prompt = 1101 − 100 = 1001.
    // ceil(1001 × 0.075 + 7 × 0.3) = ceil(75.075 + 2.1) = ceil(77.175) = 78.
    const mini = price({ input: 0.075, output: 0.3, extra_ratios: { cached_tokens: 0.5 } });
    const settlement = settledQuota({
      price: mini,
      groupRatio: 1,
      usage: { prompt_tokens: 1101, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 201 } },
    });
    expect(settlement.quota).toBe(78);
  });

  it('applies the default ratios of Claude cache writes (1.25) and reads (0.1)', () => {
    // prompt 10 000 = 2000 plain + 4000 written + 4000 read:
    // 10 000 + int(4000 × 0.25) + int(4000 × −0.9) = 10 000 + 1000 − 3600 = 7400; × 1.5 = 11 100.
    // completion 100 × 7.5 = 750. Total 11 850.
    const claude = price({ input: 1.5, output: 7.5, channel_type: providerType('anthropic') });
    const settlement = settledQuota({
      price: claude,
      groupRatio: 1,
      usage: {
        prompt_tokens: 10_000,
        completion_tokens: 100,
        prompt_tokens_details: { cached_write_tokens: 4000, cached_read_tokens: 4000 },
      },
    });
    expect(settlement.quota).toBe(11_850);
    expect(settlement.extraTokens).toEqual({
      cached_write_tokens: { count: 4000, ratio: 1.25 },
      cached_read_tokens: { count: 4000, ratio: 0.1 },
    });
  });

  it('maps audio, text and image details to their own side', () => {
    // Audio model: input 1.25, output 5; input audio at 16×, output audio at 8×.
    // prompt 300 (100 audio): 300 + 100 × 15 = 1800 → × 1.25 = 2250.
    // completion 50 (40 audio, 10 text): 50 + 40 × 7 = 330 → × 5 = 1650. Total 3900.
    const audio = price({
      input: 1.25,
      output: 5,
      extra_ratios: { input_audio_tokens: 16, output_audio_tokens: 8 },
    });
    const settlement = settledQuota({
      price: audio,
      groupRatio: 1,
      usage: {
        prompt_tokens: 300,
        completion_tokens: 50,
        prompt_tokens_details: { audio_tokens: 100, text_tokens: 200 },
        completion_tokens_details: { audio_tokens: 40, text_tokens: 10 },
      },
    });
    expect(settlement.quota).toBe(3900);
    expect(Object.keys(settlement.extraTokens).sort()).toEqual([
      'input_audio_tokens',
      'input_text_tokens',
      'output_audio_tokens',
      'output_text_tokens',
    ]);
  });

  it('does not add a quota for binary noise', () => {
    // 300 × 0.07 is 21.000000000000004 in floating point; its ceiling must still be 21.
    const odd = price({ input: 0.07, output: 0 });
    expect(settledQuota({ price: odd, groupRatio: 1, usage: { prompt_tokens: 300, completion_tokens: 0 } }).quota).toBe(
      21,
    );
  });

  it('charges a per-call price once, whatever the tokens', () => {
    const call = price({ type: 'times', input: 20, output: 99 });
    const usage = { prompt_tokens: 123, completion_tokens: 456 };
    expect(settledQuota({ price: call, groupRatio: 1.5, usage }).quota).toBe(30_000);
    expect(settledQuota({ price: call, groupRatio: 1, usage: { prompt_tokens: 0, completion_tokens: 0 } }).quota).toBe(
      20_000,
    );
  });

  it('charges at least 1 for a priced model, and nothing when no tokens were used', () => {
    const cheap = price({ input: 0.0001, output: 0 });
    expect(settledQuota({ price: cheap, groupRatio: 1, usage: { prompt_tokens: 1, completion_tokens: 0 } }).quota).toBe(
      1,
    );
    expect(settledQuota({ price: cheap, groupRatio: 1, usage: { prompt_tokens: 0, completion_tokens: 0 } }).quota).toBe(
      0,
    );
  });

  it('charges nothing for a free model', () => {
    const free = price({ input: 0, output: 0 });
    expect(
      settledQuota({ price: free, groupRatio: 1, usage: { prompt_tokens: 5000, completion_tokens: 5000 } }).quota,
    ).toBe(0);
  });

  it('never turns over-reported discounts into a negative charge', () => {
    // 100 prompt tokens, all "cached" at ratio 0, plus a bogus 500 more: prompt becomes 100 − 600 < 0.
    const outputOnly = price({ input: 0, output: 2, extra_ratios: { cached_tokens: 0 } });
    const settlement = settledQuota({
      price: outputOnly,
      groupRatio: 1,
      usage: { prompt_tokens: 100, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 600 } },
    });
    expect(settlement.quota).toBe(0);
  });

  it('treats missing, negative or non-numeric counts as zero', () => {
    const settlement = settledQuota({
      price: gpt4o,
      groupRatio: 1,
      usage: {
        prompt_tokens: Number.NaN,
        completion_tokens: 10,
        prompt_tokens_details: { cached_tokens: -50 },
      },
    });
    expect(settlement).toEqual({ quota: 75, promptTokens: 0, completionTokens: 10, extraTokens: {} });
  });
});

describe('priceToUsd', () => {
  it('converts a ratio to dollars per 1K and per 1M tokens', () => {
    expect(priceToUsd(1)).toEqual({ perThousand: 0.002, perMillion: 2 });
    expect(priceToUsd(1.25)).toEqual({ perThousand: 0.0025, perMillion: 2.5 });
    expect(priceToUsd(0.075)).toEqual({ perThousand: 0.00015, perMillion: 0.15 });
  });
});
