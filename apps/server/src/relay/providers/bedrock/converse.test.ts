import { describe, expect, it } from 'vitest';
import { accumulateChunks, decodeInSlices } from '../../../../test/providers/anthropic/test-support.js';
import { context, converseStream, fixtureJson } from '../../../../test/providers/bedrock/test-support.js';
import type { ChatRequest, Json } from '../types.js';
import {
  buildConverseBody,
  completionFromConverse,
  converseStreamDecoder,
  finishFromConverse,
  usageFromConverse,
} from './converse.js';
import { encodeEvent, encodeException } from './eventstream.js';

const NOVA = 'amazon.nova-pro-v1:0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BAAQAFAQH/Xq3KZQAAAABJRU5ErkJggg==';
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Gets the current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const body = (request: Partial<ChatRequest>) =>
  buildConverseBody({ model: NOVA, messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatRequest);

type StreamEntry = { event: string; payload: Json };

describe('buildConverseBody', () => {
  it('translates a tool conversation into the documented Converse request', () => {
    expect(
      body({
        messages: [
          { role: 'system', content: 'You are a concise weather assistant.' },
          { role: 'user', content: 'What is the weather like in Paris?' },
          {
            role: 'assistant',
            content: 'Let me look that up.',
            tool_calls: [
              {
                id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', content: '18°C, light rain' },
        ],
        max_tokens: 512,
        temperature: 0.5,
        top_p: 0.9,
        stop: '###',
        tools: [weather],
        tool_choice: 'auto',
      }),
    ).toEqual(fixtureJson('converse-request-weather.json'));
  });

  it('sends a minimal request: one user text block, nothing else', () => {
    expect(body({})).toEqual({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
  });

  it('hoists system and developer messages from anywhere, and merges turns of one role', () => {
    const out = body({
      messages: [
        { role: 'system', content: 'Rule one.' },
        { role: 'user', content: 'A' },
        { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'B' },
            { type: 'text', text: '' },
          ],
        },
        { role: 'assistant', content: 'C' },
        { role: 'assistant', content: [{ type: 'text', text: 'D' }] },
        { role: 'user', content: 'E' },
      ],
    });
    expect(out.system).toEqual([{ text: 'Rule one.' }, { text: 'Rule two.' }]);
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'A' }, { text: 'B' }] },
      { role: 'assistant', content: [{ text: 'C' }, { text: 'D' }] },
      { role: 'user', content: [{ text: 'E' }] },
    ]);
    // Only system messages: they become the user turn (Converse needs one message).
    expect(body({ messages: [{ role: 'system', content: 'Say hi.' }] })).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Say hi.' }] }],
    });
  });

  it('sends base64 images and documents as bytes, and refuses web URLs by naming the field', () => {
    const out = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            {
              type: 'file',
              file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'Q3 report (final).pdf' },
            },
            { type: 'file', file: { file_data: 'data:text/csv;base64,YSxi' } },
          ],
        },
      ],
    });
    expect((out.messages as Json[])[0]).toEqual({
      role: 'user',
      content: [
        { text: 'Compare' },
        { image: { format: 'png', source: { bytes: PNG } } },
        { image: { format: 'jpeg', source: { bytes: '/9j/4AAQ' } } },
        { document: { format: 'pdf', name: 'Q3 report (final)', source: { bytes: 'JVBERi0=' } } },
        { document: { format: 'csv', name: 'document-5', source: { bytes: 'YSxi' } } },
      ],
    });
    const withUrl = {
      messages: [
        { role: 'user' as const, content: 'x' },
        {
          role: 'user' as const,
          content: [{ type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } }],
        },
      ],
    };
    expect(() => body(withUrl)).toThrow(/^messages\[1\]\.content\[0\]\.image_url\.url: .*base64 data URLs/);
    expect(() =>
      body({
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,Qk0=' } }] },
        ],
      }),
    ).toThrow('messages[0].content[0].image_url.url: Bedrock takes png, jpeg, gif or webp images, not image/bmp');
    expect(() =>
      body({
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }],
      }),
    ).toThrow(/^messages\[0\]\.content\[0\]: /);
  });

  it('carries parallel tool calls and their results (errors marked) in one user turn, results first', () => {
    const out = body({
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'Sunny' }] },
        { role: 'tool', tool_call_id: 'call_2', content: '[tool error] city unknown' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [weather],
    });
    expect(out.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather in Paris and Tokyo?' }] },
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
          { toolUse: { toolUseId: 'call_2', name: 'get_weather', input: {} } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_1', content: [{ text: 'Sunny' }] } },
          { toolResult: { toolUseId: 'call_2', content: [{ text: 'city unknown' }], status: 'error' } },
          { text: 'Thanks' },
        ],
      },
    ]);
    expect(() => body({ messages: [{ role: 'tool', content: 'x' } as never] })).toThrow(
      'messages[0].tool_call_id: a string is required',
    );
  });

  it('maps every tool_choice, leaving tools out for "none" unless the conversation holds tool blocks', () => {
    expect(body({ tools: [weather] }).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'get_weather',
            description: weather.function.description,
            inputSchema: { json: weather.function.parameters },
          },
        },
      ],
    });
    expect((body({ tools: [weather], tool_choice: 'auto' }).toolConfig as Json).toolChoice).toEqual({ auto: {} });
    expect((body({ tools: [weather], tool_choice: 'required' }).toolConfig as Json).toolChoice).toEqual({ any: {} });
    expect(
      (
        body({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } })
          .toolConfig as Json
      ).toolChoice,
    ).toEqual({ tool: { name: 'get_weather' } });
    expect(body({ tools: [weather], tool_choice: 'none' }).toolConfig).toBeUndefined();
    const looping = body({
      tools: [weather],
      tool_choice: 'none',
      messages: [
        { role: 'user', content: 'Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'Sunny' },
      ],
    });
    expect(looping.toolConfig).toEqual({ tools: [expect.objectContaining({ toolSpec: expect.any(Object) })] });
    expect(body({ tools: [{ type: 'function', function: { name: 'bare' } }] }).toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'bare', inputSchema: { json: { type: 'object', properties: {} } } } }],
    });
    expect(() => body({ tools: [weather], tool_choice: 'sometimes' as never })).toThrow(/^tool_choice: /);
    expect(() => body({ tools: [{ type: 'function', function: {} } as never] })).toThrow('tools[0].function.name');
  });

  it('puts sampling in inferenceConfig, top_k in additionalModelRequestFields, and drops what Converse lacks', () => {
    const out = body({
      max_completion_tokens: 300,
      max_tokens: 100,
      temperature: 0,
      top_p: 1,
      top_k: 40,
      stop: ['END', '', 'STOP'],
      seed: 7,
      n: 2,
      presence_penalty: 1,
      frequency_penalty: 1,
      response_format: { type: 'json_object' },
      parallel_tool_calls: false,
      reasoning_effort: 'high',
    });
    expect(out).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      inferenceConfig: { maxTokens: 300, temperature: 0, topP: 1, stopSequences: ['END', 'STOP'] },
      additionalModelRequestFields: { top_k: 40 },
    });
  });

  it('names malformed input by its field path', () => {
    expect(() => body({ messages: 'hi' as never })).toThrow('messages: a list of messages is required');
    expect(() => body({ messages: [] })).toThrow('messages: at least one user or assistant message is required');
    expect(() => body({ messages: [{ role: 'robot', content: 'x' } as never] })).toThrow(
      'messages[0].role: unsupported role "robot"',
    );
    expect(() => body({ messages: [{ role: 'user', content: [{ type: 'video' }] } as never] })).toThrow(
      'messages[0].content[0].type: unsupported content part "video"',
    );
    expect(() =>
      body({
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: '', type: 'function', function: { name: 'x', arguments: '{}' } }],
          },
        ],
      }),
    ).toThrow('messages[0].tool_calls[0].id: a string is required');
    expect(() =>
      body({
        messages: [
          { role: 'system', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
        ],
      }),
    ).toThrow('messages[0].content[0]: a system message can only hold text');
  });
});

describe('completionFromConverse', () => {
  const ctx = context({ upstreamModel: NOVA });

  it('reads a text answer and its usage', () => {
    expect(completionFromConverse(fixtureJson('converse-answer-text.json'), ctx)).toEqual({
      id: 'chatcmpl-bedrock1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: NOVA,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Paris has light rain and 18°C right now.' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 125,
        completion_tokens: 14,
        total_tokens: 139,
        prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
      },
    });
  });

  it('reads parallel tool calls, and counts cache reads and writes into the prompt', () => {
    const completion = completionFromConverse(fixtureJson('converse-answer-parallel-tools-cached.json'), ctx);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe("I'll check both cities.");
    expect(choice?.message.tool_calls).toEqual([
      { id: 'tooluse_Paris01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'tooluse_Tokyo02', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 90 + 1800 + 300,
      completion_tokens: 64,
      total_tokens: 2254,
      prompt_tokens_details: { cached_tokens: 1800, cached_write_tokens: 300, cached_read_tokens: 1800 },
    });
  });

  it('reads reasoning text as reasoning_content and skips redacted reasoning', () => {
    const message = completionFromConverse(fixtureJson('converse-answer-reasoning.json'), ctx).choices[0]?.message;
    expect(message).toEqual({
      role: 'assistant',
      content: 'The answer is 4.',
      reasoning_content: '2 + 2 is basic arithmetic: 4.',
    });
  });

  it('maps every stop reason', () => {
    expect(finishFromConverse('end_turn')).toBe('stop');
    expect(finishFromConverse('stop_sequence')).toBe('stop');
    expect(finishFromConverse('tool_use')).toBe('tool_calls');
    expect(finishFromConverse('max_tokens')).toBe('length');
    expect(finishFromConverse('model_context_window_exceeded')).toBe('length');
    expect(finishFromConverse('guardrail_intervened')).toBe('content_filter');
    expect(finishFromConverse('content_filtered')).toBe('content_filter');
    expect(finishFromConverse('something_new')).toBe('stop');
    expect(usageFromConverse({})).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
    });
  });

  it('names an answer without output.message.content', () => {
    expect(() => completionFromConverse({ output: {} }, ctx)).toThrow(
      "the upstream's answer has no output.message.content",
    );
  });
});

describe('converseStreamDecoder', () => {
  const ctx = context({ upstreamModel: NOVA, stream: true });
  const stream = (name: string) => converseStream(fixtureJson<StreamEntry[]>(name));

  it('streams text (multi-byte characters cut anywhere) and puts usage in a last chunk', () => {
    const bytes = stream('converse-stream-text.json');
    for (const size of [1, 3, 17, bytes.length]) {
      const chunks = decodeInSlices(converseStreamDecoder(ctx), bytes, size);
      const answer = accumulateChunks(chunks);
      expect(answer).toMatchObject({ role: 'assistant', content: 'Paris: 18°C, légère pluie ☔', finish: 'stop' });
      expect(answer.usage).toEqual({
        prompt_tokens: 525,
        completion_tokens: 16,
        total_tokens: 541,
        prompt_tokens_details: { cached_tokens: 400, cached_write_tokens: 0, cached_read_tokens: 400 },
      });
      const last = chunks.at(-1);
      expect(last?.choices).toEqual([]);
      expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
      for (const chunk of chunks)
        expect(chunk).toMatchObject({ id: 'chatcmpl-bedrock1', model: NOVA, created: 1_700_000_000 });
    }
  });

  it('streams parallel tool calls with their arguments split across events', () => {
    const chunks = decodeInSlices(converseStreamDecoder(ctx), stream('converse-stream-tool-use.json'), 5);
    const answer = accumulateChunks(chunks);
    expect(answer.content).toBe('Checking both.');
    expect(answer.toolCalls).toEqual([
      { id: 'tooluse_Paris01', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'tooluse_Tokyo02', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
    ]);
    expect(answer.finish).toBe('tool_calls');
    const argumentChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function.arguments);
    expect(argumentChunks).toHaveLength(3);
  });

  it('streams reasoning as reasoning_content and a max_tokens stop as length', () => {
    const answer = accumulateChunks(
      decodeInSlices(converseStreamDecoder(ctx), stream('converse-stream-reasoning.json'), 9),
    );
    expect(answer).toMatchObject({
      reasoning: 'Two plus two makes four.',
      content: 'The answer is 4.',
      finish: 'length',
    });
    expect(answer.usage?.completion_tokens).toBe(44);
  });

  it('throws the exception Bedrock sends mid-stream, after the chunks before it', () => {
    const before = Buffer.concat([
      encodeEvent('messageStart', { role: 'assistant' }),
      encodeEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hel' } }),
    ]);
    const exception = encodeException(
      'modelStreamErrorException',
      'Model stream error: the model produced an invalid sequence.',
    );
    const decoder = converseStreamDecoder(ctx);
    expect(accumulateChunks(decoder.push(before)).content).toBe('Hel');
    expect(() => decoder.push(Buffer.from(exception))).toThrow(
      'modelStreamErrorException: Model stream error: the model produced an invalid sequence.',
    );
    expect(() =>
      converseStreamDecoder(ctx).push(Buffer.from(encodeException('throttlingException', 'Too many requests'))),
    ).toThrow('throttlingException: Too many requests');
  });

  it('fails a stream cut before messageStop, or cut inside a message', () => {
    const whole = stream('converse-stream-text.json');
    const entries = fixtureJson<StreamEntry[]>('converse-stream-text.json');
    const early = converseStream(entries.slice(0, 3));
    const decoder = converseStreamDecoder(ctx);
    expect(accumulateChunks(decoder.push(early)).content).toBe('Paris: 18°C, légère pluie');
    expect(() => decoder.end()).toThrow('the upstream stream ended before the message was complete');
    const cut = converseStreamDecoder(ctx);
    cut.push(whole.subarray(0, whole.length - 10));
    expect(() => cut.end()).toThrow(/ended in the middle of a message/);
  });

  it('ends without a usage chunk when metadata never came', () => {
    const entries = fixtureJson<StreamEntry[]>('converse-stream-text.json').slice(0, -1);
    const chunks = decodeInSlices(converseStreamDecoder(ctx), converseStream(entries), 64);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(accumulateChunks(chunks).finish).toBe('stop');
  });
});
