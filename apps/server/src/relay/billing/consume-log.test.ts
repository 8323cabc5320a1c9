import { defaultTokenSetting } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { providerType } from '../../domain/channel-types/registry.js';
import type { TokenRow, UserRow } from '../../platform/db/index.js';
import { type ConsumeRecord, consumeLogRow } from './consume-log.js';
import type { Price } from './quota.js';

const price: Price = {
  model: 'gpt-4o-mini',
  type: 'tokens',
  channel_type: providerType('openai'),
  input: 1,
  output: 2,
  locked: false,
  extra_ratios: {},
};

function record(token: { group: string; backup_group: string }, group: string): ConsumeRecord {
  return {
    caller: {
      user: { id: 7, username: 'alice', group: 'default' } as UserRow,
      token: { id: 3, name: 'key', ...token } as TokenRow,
      setting: defaultTokenSetting(),
      unlimited: true,
      forcedChannelId: undefined,
      skippedChannelIds: [],
    },
    requestId: 'req-1',
    sourceIp: '10.0.0.1',
    model: 'gpt-4o-mini',
    channelId: 4,
    group,
    groupRatio: 1.5,
    price,
    settled: { quota: 30, promptTokens: 10, completionTokens: 5, extraTokens: {} },
    usage: { prompt_tokens: 10, completion_tokens: 5 },
    charged: 30,
    shortfall: 0,
    startedAt: Date.now(),
    firstByteMs: undefined,
    stream: false,
    clientGone: false,
  };
}

const metadataOf = (entry: ConsumeRecord) => JSON.parse(consumeLogRow(entry).metadata ?? '{}');

describe('consume log metadata', () => {
  it("marks a request served by the key's backup group, which the console shows", () => {
    const served = metadataOf(record({ group: 'vip', backup_group: 'cheap' }, 'cheap'));
    expect(served).toMatchObject({ group_name: 'cheap', is_backup_group: true, backup_group_name: 'cheap' });
  });

  it('leaves the mark off when the primary group served', () => {
    const own = metadataOf(record({ group: '', backup_group: 'cheap' }, 'default'));
    expect(own.group_name).toBe('default');
    expect(own.is_backup_group).toBeUndefined();
    const keyGroup = metadataOf(record({ group: 'vip', backup_group: 'cheap' }, 'vip'));
    expect(keyGroup.is_backup_group).toBeUndefined();
    // A backup equal to the primary group is never a fallback.
    const same = metadataOf(record({ group: '', backup_group: 'default' }, 'default'));
    expect(same.is_backup_group).toBeUndefined();
  });
});

describe('consume log columns', () => {
  it('fits outside values to their columns, so the row of a billed request is never refused', () => {
    const long = record({ group: '', backup_group: '' }, 'default');
    const row = consumeLogRow({ ...long, model: `gpt-${'x'.repeat(300)}`, sourceIp: `10.${'1'.repeat(200)}` });
    expect(row.model_name).toBe(`gpt-${'x'.repeat(251)}`);
    expect(row.source_ip).toHaveLength(128);
    expect(row.source_ip.startsWith('10.111')).toBe(true);
  });
});
