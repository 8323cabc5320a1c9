import type { Kysely } from 'kysely';
import { providerByType } from '../../domain/channel-types/registry.js';
import type { Database, NewChannelRow } from '../../platform/db/index.js';
import type { LegacyChannel, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, insertedId, type WriteContext } from './context.js';
import { recordIds } from './id-map.js';

/** Every column as the source has it; the provider key is sealed as the channel repository seals it. */
function toRow(channel: LegacyChannel, context: WriteContext): NewChannelRow {
  return {
    type: channel.type,
    key: context.secrets.channels.seal(channel.key),
    status: channel.status >= 0 && channel.status <= 3 ? channel.status : 2,
    name: clip(channel.name, 255),
    weight: channel.weight,
    created_time: channel.created_time,
    test_time: channel.test_time,
    response_time: channel.response_time,
    base_url: clip(channel.base_url, 500),
    other: channel.other,
    balance: channel.balance,
    balance_updated_time: channel.balance_updated_time,
    models: channel.models,
    group: clip(channel.group, 255),
    tag: clip(channel.tag, 64),
    used_quota: channel.used_quota,
    model_mapping: channel.model_mapping,
    model_headers: channel.model_headers,
    custom_parameter: channel.custom_parameter,
    priority: channel.priority,
    proxy: clip(channel.proxy, 255),
    test_model: clip(channel.test_model, 100),
    only_chat: channel.only_chat,
    pre_cost: [1, 2, 3].includes(channel.pre_cost) ? channel.pre_cost : 1,
    compatible_response: channel.compatible_response,
    allow_extra_body: channel.allow_extra_body,
    disabled_stream: channel.disabled_stream || '[]',
    plugin: channel.plugin,
    routing_strategy: channel.routing_strategy,
    deleted_at: channel.deleted_at,
  };
}

export async function writeChannels(
  executor: Kysely<Database>,
  context: WriteContext,
  channels: readonly LegacyChannel[],
): Promise<BatchResult> {
  const skipped: Skipped[] = [];
  for (const channel of channels) {
    if (channel.deleted_at === null && !providerByType(channel.type)) {
      skipped.push({
        table: 'channels',
        row: channel.id,
        reason: `imported, but channel type ${channel.type} has no provider here, so requests cannot use it`,
        count: 0,
      });
    }
  }
  const idPairs: Array<[number, number]> = [];
  if (context.mode === 'fresh') {
    for (const chunk of chunked(channels)) {
      await executor
        .insertInto('channels')
        .values(chunk.map((channel) => ({ ...toRow(channel, context), id: channel.id })))
        .execute();
    }
    for (const channel of channels) idPairs.push([channel.id, channel.id]);
  } else {
    for (const channel of channels) {
      idPairs.push([
        channel.id,
        await insertedId(context, executor.insertInto('channels').values(toRow(channel, context))),
      ]);
    }
  }
  await recordIds(executor, context, 'channels', idPairs);
  return { written: channels.length, skipped };
}
