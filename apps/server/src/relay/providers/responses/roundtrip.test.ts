import { describe, expect, it } from 'vitest';
import { fixture as anthropicFixture } from '../../../../test/providers/anthropic/test-support.js';
import { fixture as geminiFixture } from '../../../../test/providers/gemini/test-support.js';
import {
  completionFixture,
  encodeAll,
  fixtureJson,
  parseEvents,
  readResponsesStream,
} from '../../../../test/providers/responses/test-support.js';
import { anthropicAdapter } from '../anthropic/adapter.js';
import { geminiAdapter } from '../gemini/adapter.js';
import type { AdapterContext, ChatChunk, ChatMessage, Json, StreamDecoder } from '../types.js';
import { responsesToChat } from './request.js';
import { responsesFromChat } from './response.js';
import { responsesStreamEncoder } from './stream.js';

/**
 * Round trips a Responses client actually makes. An agent loop (Codex style) sends back the
 * output items of each answer as input: translated again, they must give the chat upstream the
 * very assistant message it wrote (text, reasoning, tool calls with their ids). And the reason
 * for the surface: Responses requests served by Anthropic and Gemini upstreams, their answers
 * and streams read back through the existing adapters.
 */

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function context(overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key: 'key',
    baseUrl: 'https://upstream.test',
    upstreamModel: 'claude-sonnet-4-5',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_700_000_000,
    responseId: 'chatcmpl-roundtrip',
    ...overrides,
  };
}

function otherFixture(adapter: 'anthropic' | 'gemini', name: string): Buffer {
  return adapter === 'anthropic' ? anthropicFixture(name) : geminiFixture(name);
}

function decodeAll(decoder: StreamDecoder, bytes: Buffer, size: number): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  return [...chunks, ...decoder.end()];
}

describe('the agent loop: output items sent back as input', () => {
  it('a whole answer with reasoning, text and parallel calls comes back as the same assistant message', () => {
    const first = fixtureJson('request-tools.json');
    const firstChat = responsesToChat(first, 'gpt-4.1');
    const completion = completionFixture('completion-tool-calls.json');
    const answer = completion.choices[0]?.message as ChatMessage & Json;
    answer.reasoning_content = 'Two cities, two calls.';
    const response = responsesFromChat(completion, 'gpt-4.1', firstChat);

    const next = {
      ...first,
      input: [
        { role: 'user', content: first.input },
        ...(response.output as Json[]),
        { type: 'function_call_output', call_id: 'call_abc123', output: '22°C' },
        { type: 'function_call_output', call_id: 'call_def456', output: '25°C' },
      ],
    };
    const nextChat = responsesToChat(next, 'gpt-4.1');
    expect(plain(nextChat.messages)).toEqual([
      ...(plain(firstChat.messages) as unknown[]),
      {
        role: 'assistant',
        content: answer.content,
        reasoning_content: 'Two cities, two calls.',
        tool_calls: answer.tool_calls,
      },
      { role: 'tool', tool_call_id: 'call_abc123', content: '22°C' },
      { role: 'tool', tool_call_id: 'call_def456', content: '25°C' },
    ]);
    expect(plain(nextChat.tools)).toEqual(plain(firstChat.tools));
  });

  it('a streamed answer’s final output comes back as the message the chunks described', () => {
    const encoder = responsesStreamEncoder('m');
    const chunk = (delta: ChatChunk['choices'][number]['delta']): ChatChunk => ({
      id: 'chatcmpl-loop',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: null }],
    });
    const final = readResponsesStream(
      parseEvents(
        encodeAll(encoder, [
          chunk({ reasoning_content: 'Need the file.' }),
          chunk({ content: 'Reading it.' }),
          chunk({
            tool_calls: [{ index: 0, id: 'call_r', type: 'function', function: { name: 'read', arguments: '{"p":' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }),
        ]),
      ),
    );
    const chat = responsesToChat(
      { model: 'm', input: [{ role: 'user', content: 'go' }, ...(final.output as Json[])] },
      'm',
    );
    expect(chat.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'Reading it.',
      reasoning_content: 'Need the file.',
      tool_calls: [{ id: 'call_r', type: 'function', function: { name: 'read', arguments: '{"p":"a.ts"}' } }],
    });
  });
});

describe('Responses clients on an Anthropic upstream', () => {
  it('the request reaches Anthropic with system, tools, tool_use and tool_result blocks', async () => {
    const chat = responsesToChat(fixtureJson('request-multi-turn-tools.json'), 'claude-sonnet-4-5');
    const call = await anthropicAdapter.buildChat(chat, context());
    const body = JSON.parse(String(call.body)) as Json;
    expect(String(JSON.stringify(body.system))).toContain('You are a helpful weather assistant.');
    expect(body.tools).toEqual([
      expect.objectContaining({ name: 'get_weather', input_schema: expect.objectContaining({ type: 'object' }) }),
    ]);
    const blocks = (body.messages as Json[]).flatMap((message) =>
      Array.isArray(message.content) ? (message.content as Json[]) : [],
    );
    expect(blocks).toContainEqual(
      expect.objectContaining({
        type: 'tool_use',
        id: 'call_12345xyz',
        input: { latitude: 48.8566, longitude: 2.3522 },
      }),
    );
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_tokyo' }));
    // Anthropic takes no reasoning without its signature: the echoed reasoning is not sent.
    expect(JSON.stringify(body)).not.toContain('Checking the weather');
  });

  it('a tool_use answer becomes a message and a function_call item', () => {
    const completion = anthropicAdapter.parseChat(otherFixture('anthropic', 'message-tool-use.json'), context());
    const response = responsesFromChat(completion, 'claude-sonnet-4-5');
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'message',
        content: [expect.objectContaining({ text: "I'll check the current weather in San Francisco for you." })],
      }),
      expect.objectContaining({
        type: 'function_call',
        call_id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
      }),
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 472, output_tokens: 89 });
  });

  it.each(['stream-tool-use.sse', 'stream-thinking.sse', 'stream-parallel-tools-cached.sse'])(
    'the Anthropic stream %s re-encodes as a valid Responses stream, in any byte slicing',
    (name) => {
      const bytes = otherFixture('anthropic', name);
      const encode = (size: number) =>
        readResponsesStream(
          parseEvents(
            encodeAll(
              responsesStreamEncoder('claude'),
              decodeAll(anthropicAdapter.decodeStream(context({ stream: true })), bytes, size),
            ),
          ),
        );
      const whole = encode(bytes.length);
      expect((whole.output as unknown[]).length).toBeGreaterThan(0);
      expect((whole.usage as Json).input_tokens).toBeGreaterThan(0);
      expect(encode(3)).toEqual(whole);
    },
  );
});

describe('Responses clients on a Gemini upstream', () => {
  it('function calls and thinking come back as Responses items; the stream re-encodes', () => {
    const gemini = context({ upstreamModel: 'gemini-2.5-flash', baseUrl: 'https://generativelanguage.googleapis.com' });
    const completion = geminiAdapter.parseChat(otherFixture('gemini', 'response-parallel-function-calls.json'), gemini);
    const output = responsesFromChat(completion, 'gemini-2.5-flash').output as Json[];
    const calls = output.filter((item) => item.type === 'function_call');
    expect(calls.length).toBeGreaterThan(1);
    for (const item of calls) {
      expect(item.call_id).toBeTruthy();
      expect(() => JSON.parse(String(item.arguments))).not.toThrow();
    }

    const bytes = otherFixture('gemini', 'stream-thinking-function-call.sse');
    const final = readResponsesStream(
      parseEvents(
        encodeAll(
          responsesStreamEncoder('gemini-2.5-flash'),
          decodeAll(geminiAdapter.decodeStream({ ...gemini, stream: true }), bytes, 7),
        ),
      ),
    );
    const types = (final.output as Json[]).map((item) => item.type);
    expect(types).toContain('reasoning');
    expect(types).toContain('function_call');
  });
});
