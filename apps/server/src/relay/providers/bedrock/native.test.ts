import { describe, expect, it } from 'vitest';
import { accumulateAnthropic, parseSse } from '../../../../test/providers/anthropic/test-support.js';
import { context, fixtureJson, invokeStream } from '../../../../test/providers/bedrock/test-support.js';
import { meterAnthropicStream } from '../anthropic/native.js';
import type { Json } from '../types.js';
import { bedrockAnthropicCall, bedrockToAnthropicSse } from './adapter.js';
import { encodeEvent, encodeException } from './eventstream.js';

/** Anthropic clients straight to Claude on Bedrock: the request wrapped, the stream re-framed. */

const clientBody: Json = {
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Hello' }],
  thinking: { type: 'enabled', budget_tokens: 1024 },
  stream: true,
};

describe('bedrockAnthropicCall', () => {
  it('wraps the client body unchanged but for model, stream and version', async () => {
    const call = await bedrockAnthropicCall(
      clientBody,
      context({ stream: true }),
      'fine-grained-tool-streaming-2025-05-14',
    );
    expect(call.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream',
    );
    expect(JSON.parse(String(call.body))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 256,
      system: clientBody.system,
      messages: clientBody.messages,
      thinking: clientBody.thinking,
      anthropic_beta: ['fine-grained-tool-streaming-2025-05-14'],
    });
    expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
  });

  it('calls /invoke for a whole answer, using the mapped model of the context', async () => {
    const call = await bedrockAnthropicCall(
      { ...clientBody, stream: false },
      context({ upstreamModel: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0#thinking' }),
    );
    expect(call.url).toMatch(/\/model\/eu\.anthropic\.claude-3-7-sonnet-20250219-v1%3A0\/invoke$/);
    expect(JSON.parse(String(call.body)).stream).toBeUndefined();
  });

  it('refuses a model that is not Claude, and a bad key', async () => {
    await expect(bedrockAnthropicCall(clientBody, context({ upstreamModel: 'amazon.nova-pro-v1:0' }))).rejects.toThrow(
      'is not a Claude model',
    );
    await expect(bedrockAnthropicCall(clientBody, context({ key: 'nope' }))).rejects.toThrow('expected Region|');
  });
});

describe('bedrockToAnthropicSse', () => {
  it('re-frames the event stream, cut at every size, into the SSE an Anthropic client reads', () => {
    const events = fixtureJson<Json[]>('invoke-stream-thinking-tools.json');
    const bytes = invokeStream(events);
    for (const size of [1, 5, 64, bytes.length]) {
      const framer = bedrockToAnthropicSse();
      let text = '';
      for (let at = 0; at < bytes.length; at += size) text += framer.push(bytes.subarray(at, at + size));
      text += framer.end();
      const parsed = parseSse(text);
      expect(parsed.map((event) => event.data)).toEqual(events);
      const message = accumulateAnthropic(parsed);
      expect(message.stop_reason).toBe('tool_use');
      expect((message.content as Json[]).map((block) => block.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
      expect((message.content as Json[])[2]?.input).toEqual({ city: 'Tokyo' });
    }
  });

  it('gives SSE the Anthropic meter reads usage from', () => {
    const framer = bedrockToAnthropicSse();
    const meter = meterAnthropicStream();
    meter.push(Buffer.from(framer.push(invokeStream(fixtureJson<Json[]>('invoke-stream-text.json')))));
    expect(meter.usage()).toMatchObject({ prompt_tokens: 14, completion_tokens: 12 });
  });

  it('skips other events, throws exceptions, and notices a stream cut mid-message', () => {
    const framer = bedrockToAnthropicSse();
    expect(framer.push(Buffer.from(encodeEvent('initial-response', {})))).toBe('');
    expect(() => framer.push(Buffer.from(encodeException('internalServerException', 'Internal failure')))).toThrow(
      'internalServerException: Internal failure',
    );
    const cut = bedrockToAnthropicSse();
    const bytes = invokeStream(fixtureJson<Json[]>('invoke-stream-text.json').slice(0, 1));
    expect(cut.push(bytes.subarray(0, 20))).toBe('');
    expect(() => cut.end()).toThrow(/ended in the middle of a message/);
  });
});
