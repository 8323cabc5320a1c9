import { describe, expect, it } from 'vitest';
import { providerType } from '../../../domain/channel-types/registry.js';
import type { AdapterContext } from '../types.js';
import { cozeAdapter, parseCozeError } from './adapter.js';
import { cozeStreamDecoder } from './answer.js';
import { botIdOf, cozeChatUrl, cozeMessages } from './request.js';

/** The Coze translation pieces on their own: addresses, messages, stream events and errors. */

const context: AdapterContext = {
  key: 'pat_unit',
  channelType: providerType('coze'),
  baseUrl: 'https://api.coze.com',
  upstreamModel: 'coze-123',
  other: '',
  plugin: {},
  headers: {},
  stream: true,
  now: 1_760_000_000,
  responseId: 'chatcmpl-coze1',
};
const event = (name: string, data: unknown) => `event:${name}\ndata:${JSON.stringify(data)}\n\n`;
const completed = event('conversation.chat.completed', { usage: { token_count: 5, output_count: 2, input_count: 3 } });

describe('Coze requests', () => {
  it('reaches /v3/chat whatever API path the base URL was copied with', () => {
    expect(cozeChatUrl('https://api.coze.cn')).toBe('https://api.coze.cn/v3/chat');
    expect(cozeChatUrl('https://api.coze.com/v3/')).toBe('https://api.coze.com/v3/chat');
    expect(cozeChatUrl('https://api.coze.com/open_api/v2/chat')).toBe('https://api.coze.com/v3/chat');
    expect(cozeChatUrl('')).toBe('https://api.coze.com/v3/chat');
  });

  it('reads the bot id from the model name', () => {
    expect(botIdOf('coze-7379462189365198898')).toBe('7379462189365198898');
    expect(botIdOf('7379462189365198898')).toBe('7379462189365198898');
    expect(() => botIdOf('coze-')).toThrow('is not a Coze bot');
  });

  it('refuses what a bot cannot take: tools, tool results, audio', () => {
    expect(() =>
      cozeAdapter.buildChat({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [] }, context),
    ).not.toThrow();
    expect(() =>
      cozeAdapter.buildChat(
        {
          model: 'm',
          messages: [{ role: 'user', content: 'x' }],
          tools: [{ type: 'function', function: { name: 'f' } }],
        },
        context,
      ),
    ).toThrow('tools: Coze bots take no function tools');
    expect(() => cozeMessages([{ role: 'tool', tool_call_id: 'c', content: 'r' }])).toThrow('messages[0].role');
    expect(() =>
      cozeMessages([{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] }]),
    ).toThrow('messages[0].content[0]: Coze takes text and image_url parts only');
  });

  it('sends a system-only conversation as the question', () => {
    expect(cozeMessages([{ role: 'system', content: 'Say hi.' }])).toEqual([
      { role: 'user', type: 'question', content_type: 'text', content: 'Say hi.' },
    ]);
  });
});

describe('Coze stream', () => {
  it('forwards an answer that came whole (a card) once, then the finish and usage', () => {
    const decoder = cozeStreamDecoder(context);
    const card = { id: 'm1', role: 'assistant', type: 'answer', content: '{"card":1}', content_type: 'card' };
    const chunks = [
      ...decoder.push(Buffer.from(event('conversation.message.completed', card) + completed)),
      ...decoder.end(),
    ];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content).filter(Boolean)).toEqual(['{"card":1}']);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it('forwards reasoning pieces as reasoning_content', () => {
    const decoder = cozeStreamDecoder(context);
    const delta = { id: 'm1', role: 'assistant', type: 'answer', content: '', reasoning_content: 'hmm' };
    const chunks = decoder.push(Buffer.from(event('conversation.message.delta', delta)));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content).filter(Boolean)).toEqual(['hmm']);
  });

  it('fails on requires_action, error events, refusals sent as JSON, and a stream cut before completion', () => {
    expect(() => cozeStreamDecoder(context).push(Buffer.from(event('conversation.chat.requires_action', {})))).toThrow(
      'requires_action',
    );
    expect(() => cozeStreamDecoder(context).push(Buffer.from(event('error', { code: 4000, msg: 'bad' })))).toThrow(
      'Coze: bad (code 4000)',
    );
    const refused = cozeStreamDecoder(context);
    expect(() => [
      ...refused.push(Buffer.from('{"code":4100,"msg":"authentication is invalid"}')),
      ...refused.end(),
    ]).toThrow('authentication is invalid (code 4100)');
    const cut = cozeStreamDecoder(context);
    cut.push(Buffer.from(event('conversation.message.delta', { id: 'm', type: 'answer', content: 'x' })));
    expect(() => cut.end()).toThrow('ended before the chat completed');
  });
});

describe('Coze errors', () => {
  it.each([
    [4100, 401, 'authentication_error'],
    [4101, 403, 'permission_error'],
    [4013, 429, 'rate_limit_error'],
    [4019, 402, 'insufficient_quota'],
    [4200, 404, 'invalid_request_error'],
    [4000, 400, 'invalid_request_error'],
    [5000, 502, 'api_error'],
  ])('maps code %i to %i', (code, status, type) => {
    const body = Buffer.from(JSON.stringify({ code, msg: 'm' }));
    expect(cozeAdapter.errorStatus?.(body)).toBe(status);
    expect(parseCozeError(200, body)).toEqual({ status, message: `m (Coze code ${code})`, type, code: String(code) });
  });

  it('reads a chat.failed event of a gathered stream, and not a successful one', () => {
    const failed = Buffer.from(event('conversation.chat.failed', { last_error: { code: 4013, msg: 'slow down' } }));
    expect(cozeAdapter.errorStatus?.(failed)).toBe(429);
    expect(cozeAdapter.errorStatus?.(Buffer.from(completed))).toBeUndefined();
    expect(cozeAdapter.errorStatus?.(Buffer.from('{"code":0,"msg":""}'))).toBeUndefined();
  });
});
