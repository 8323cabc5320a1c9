import { describe, expect, it } from 'vitest';
import { consumeMetadataText, type MetadataFields } from './consume-metadata.js';

const plain: MetadataFields = {
  group: 'default',
  groupRatio: 1.5,
  price: { type: 'tokens', input: 0.075, output: 2 },
  backupGroup: undefined,
  firstByteMs: undefined,
  extraTokens: {},
  shortfall: 0,
  clientGone: false,
  cached: undefined,
  requestedModel: undefined,
  paidBy: undefined,
  planPaid: undefined,
  route: undefined,
};

// Each expectation is the object the metadata stands for, keys in the order the console and the
// reference's rows have them: the text must be exactly what JSON.stringify writes for it.
describe('the consume log metadata text', () => {
  it('is the JSON of the group and price alone for a plain request', () => {
    expect(consumeMetadataText(plain)).toBe(
      JSON.stringify({
        group_name: 'default',
        group_ratio: 1.5,
        price_type: 'tokens',
        input_ratio: 0.075,
        output_ratio: 2,
      }),
    );
  });

  it('is the JSON of every field a request can add, in order', () => {
    const route = {
      strategy: 'weighted',
      tried: [
        { id: 3, outcome: 'timeout' as const, ms: 1200 },
        { id: 1, outcome: 'ok' as const, ms: 6 },
      ],
      skipped: [{ id: 2, reason: 'cooling' as const }],
    };
    const text = consumeMetadataText({
      ...plain,
      group: 'v"ip \\ ✓',
      backupGroup: 'v"ip \\ ✓',
      firstByteMs: 7,
      extraTokens: { cached_tokens: { count: 4, ratio: 0.5 }, reasoning_tokens: { count: 3, ratio: 1e-7 } },
      shortfall: 5,
      clientGone: true,
      cached: true,
      requestedModel: 'gpt-4o',
      paidBy: 'plan',
      route,
    });
    expect(text).toBe(
      JSON.stringify({
        group_name: 'v"ip \\ ✓',
        group_ratio: 1.5,
        price_type: 'tokens',
        input_ratio: 0.075,
        output_ratio: 2,
        is_backup_group: true,
        backup_group_name: 'v"ip \\ ✓',
        first_response: 7,
        cached_tokens: 4,
        cached_tokens_ratio: 0.5,
        reasoning_tokens: 3,
        reasoning_tokens_ratio: 1e-7,
        uncharged_quota: 5,
        client_disconnected: true,
        cache_hit: true,
        requested_model: 'gpt-4o',
        paid_by: 'plan',
        plan_quota: 0,
        route,
      }),
    );
  });

  it('leaves out what JSON.stringify leaves out, and writes null for a number that is not finite', () => {
    const text = consumeMetadataText({
      ...plain,
      groupRatio: Number.NaN,
      price: { type: 'times', input: undefined as unknown as number, output: Number.POSITIVE_INFINITY },
      extraTokens: { cached_tokens: undefined } as unknown as MetadataFields['extraTokens'],
      paidBy: 'balance',
      planPaid: 12,
      route: { strategy: 'priority', tried: [], skipped: [] },
    });
    expect(text).toBe(
      JSON.stringify({
        group_name: 'default',
        group_ratio: Number.NaN,
        price_type: 'times',
        output_ratio: Number.POSITIVE_INFINITY,
        paid_by: 'balance',
        route: { strategy: 'priority', tried: [], skipped: [] },
      }),
    );
  });
});
