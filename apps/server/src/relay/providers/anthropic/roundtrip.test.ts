import { describe, expect, it } from 'vitest';
import {
  accumulateAnthropic,
  context,
  decodeInSlices,
  fixture,
  fixtureJson,
  parseSse,
  type SseEvent,
} from '../../../../test/providers/anthropic/test-support.js';
import type { ChatChunk, Json } from '../types.js';
import { anthropicAdapter } from './adapter.js';
import { anthropicSurface } from './surface.js';

/**
 * Anthropic → canonical → Anthropic. Documented differences: `cache_control` marks are dropped;
 * thinking signatures cannot be carried (the re-encoded thinking block has an empty one);
 * ids and model come from the hub; empty `input_json_delta` fragments and pings are not repeated.
 */

async function roundTrip(body: Json): Promise<Json> {
  const request = anthropicSurface.toChat(body, String(body.model));
  const call = await anthropicAdapter.buildChat(
    request,
    context({ upstreamModel: String(body.model), stream: body.stream === true }),
  );
  return JSON.parse(String(call.body)) as Json;
}

const withoutCacheControl = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, item) => (key === 'cache_control' ? undefined : item)));

describe('request round trip', () => {
  it.each([
    'request-basic.json',
    'request-multi-turn.json',
    'request-tools.json',
    'request-images.json',
    'request-thinking.json',
  ])('%s comes back unchanged', async (name) => {
    const body = fixtureJson(name);
    expect(await roundTrip(body)).toEqual(body);
  });

  it('system blocks come back as blocks, without their cache_control marks', async () => {
    const body = fixtureJson('request-system-blocks.json');
    expect(await roundTrip(body)).toEqual(withoutCacheControl(body));
  });
});

/** Content events compared by what a client sees: no pings, signatures or empty fragments. */
function contentEvents(events: SseEvent[]): Json[] {
  return events
    .filter(({ data }) => {
      if (data.type === 'ping') return false;
      const delta = data.delta as Json | undefined;
      if (data.type !== 'content_block_delta' || !delta)
        return data.type !== 'message_start' && data.type !== 'message_delta';
      return delta.type !== 'signature_delta' && !(delta.type === 'input_json_delta' && delta.partial_json === '');
    })
    .map(({ data }) => {
      if (data.type !== 'content_block_start') return data;
      const block = { ...(data.content_block as Json) };
      delete block.signature;
      return { ...data, content_block: block };
    });
}

const fullUsage = (usage: unknown) => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  ...(usage as Json),
});

describe('stream round trip', () => {
  it.each(['stream-text.sse', 'stream-tool-use.sse', 'stream-thinking.sse', 'stream-parallel-tools-cached.sse'])(
    '%s re-encodes to an equivalent event sequence',
    (name) => {
      const original = parseSse(fixture(name).toString('utf8'));
      const chunks: ChatChunk[] = decodeInSlices(
        anthropicAdapter.decodeStream(context({ stream: true })),
        fixture(name),
        37,
      );
      const encoder = anthropicSurface.encodeStream('claude-sonnet-4-5');
      let text = '';
      let usage: ChatChunk['usage'];
      for (const chunk of chunks) {
        if (chunk.usage) usage = chunk.usage;
        text += encoder.push(chunk);
      }
      text += encoder.end(usage ?? undefined);
      const again = parseSse(text);

      expect(contentEvents(again)).toEqual(contentEvents(original));

      const before = accumulateAnthropic(original);
      const after = accumulateAnthropic(again);
      const blocks = (message: Json) =>
        (message.content as Json[]).map((block) => {
          const { signature: _signature, ...rest } = block;
          return rest;
        });
      expect(blocks(after)).toEqual(blocks(before));
      expect(after.stop_reason).toBe(before.stop_reason);
      expect(after.usage).toEqual(fullUsage(before.usage));
      expect(after.id).toBe('msg_test123');
      expect(after.model).toBe('claude-sonnet-4-5');
    },
  );
});
