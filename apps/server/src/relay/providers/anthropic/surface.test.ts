import { describe, expect, it } from 'vitest';
import { accumulateAnthropic, fixtureJson, parseSse } from '../../../../test/providers/anthropic/test-support.js';
import type { ChatChunk, ChatCompletion, ChatUsage, Json } from '../types.js';
import { effortForBudget, thinkingBudgetOf } from './common.js';
import { anthropicSurface } from './surface.js';

const toChat = (body: Json) => anthropicSurface.toChat(body, String(body.model ?? ''));
const base = { model: 'claude-sonnet-4-5', max_tokens: 100 };

describe('anthropicSurface.toChat', () => {
  it('translates a basic request', () => {
    expect(toChat(fixtureJson('request-basic.json'))).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Hello, world' }],
    });
  });

  it('translates system, multi-turn, stop sequences, sampling, metadata and stream', () => {
    expect(toChat(fixtureJson('request-multi-turn.json'))).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'system', content: 'You are a seasoned data scientist at a Fortune 500 company.' },
        { role: 'user', content: 'Hello there.' },
        { role: 'assistant', content: "Hi, I'm Claude. How can I help you?" },
        { role: 'user', content: 'Can you explain LLMs in plain English?' },
      ],
      stream: true,
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      stop: ['\n\nHuman:', 'END'],
      user: '13803d75-b4b5-4c3e-b2a2-6f21399b021b',
    });
  });

  it('uses the model it is given over the body model', () => {
    expect(anthropicSurface.toChat(fixtureJson('request-basic.json'), 'mapped-model').model).toBe('mapped-model');
  });

  it('turns system blocks into one system message each', () => {
    const request = toChat(fixtureJson('request-system-blocks.json'));
    expect(request.messages.slice(0, 2)).toEqual([
      {
        role: 'system',
        content:
          'You are an AI assistant tasked with analyzing literary works. Your goal is to provide insightful commentary on themes, characters, and writing style.\n',
      },
      { role: 'system', content: "<the entire contents of 'Pride and Prejudice'>" },
    ]);
    expect(request.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: "Analyze the major themes in 'Pride and Prejudice'." }],
    });
  });

  it('translates tools, tool_choice, tool_use history and tool results (errors noted)', () => {
    const request = toChat(fixtureJson('request-tools.json'));
    expect(request.tools?.map((tool) => tool.function.name)).toEqual(['get_weather', 'get_time']);
    expect(request.tools?.[0]).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Get the current weather in a given location',
        parameters: {
          type: 'object',
          properties: {
            location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
            unit: {
              type: 'string',
              enum: ['celsius', 'fahrenheit'],
              description: "The unit of temperature, either 'celsius' or 'fahrenheit'",
            },
          },
          required: ['location'],
        },
      },
    });
    expect(request.tool_choice).toBe('auto');
    expect(request.parallel_tool_calls).toBe(false);
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: "I'll check the weather and time for you.",
        tool_calls: [
          {
            id: 'toolu_01A09q90qw90lq917835lq9',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
          },
          {
            id: 'toolu_01B09q90qw90lq917835lq9',
            type: 'function',
            function: { name: 'get_time', arguments: '{"timezone":"America/New_York"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_01A09q90qw90lq917835lq9', content: '15 degrees' },
      {
        role: 'tool',
        tool_call_id: 'toolu_01B09q90qw90lq917835lq9',
        content: '[tool error] ConnectionError: the time service is not available',
      },
      { role: 'user', content: [{ type: 'text', text: 'Please answer briefly.' }] },
    ]);
  });

  it('translates every tool_choice', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const choice = (tool_choice: Json) =>
      toChat({ ...base, messages: [{ role: 'user', content: 'x' }], tools, tool_choice });
    expect(choice({ type: 'any' }).tool_choice).toBe('required');
    expect(choice({ type: 'none' }).tool_choice).toBe('none');
    expect(choice({ type: 'tool', name: 'f' }).tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(choice({ type: 'auto' })).not.toHaveProperty('parallel_tool_calls');
  });

  it('turns base64 and url images into image_url parts', () => {
    const request = toChat(fixtureJson('request-images.json'));
    const parts = request.messages[0]?.content as unknown as Json[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url', 'text', 'image_url', 'text']);
    expect(parts[1]).toEqual({
      type: 'image_url',
      image_url: {
        url: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/',
      },
    });
    expect(parts[3]).toEqual({
      type: 'image_url',
      image_url: { url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg' },
    });
  });

  it('keeps images and documents inside tool results and user turns', () => {
    const request = toChat({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'r.pdf',
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Grass is green.' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              is_error: true,
              content: [{ type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } }],
            },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'r.pdf' } },
          {
            type: 'file',
            file: { file_data: `data:text/plain;base64,${Buffer.from('Grass is green.').toString('base64')}` },
          },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 't1',
        content: [
          { type: 'text', text: '[tool error] ' },
          { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
        ],
      },
    ]);
  });

  it('maps thinking to the nearest effort and keeps the exact budget out of the JSON', () => {
    const request = toChat(fixtureJson('request-thinking.json'));
    expect(request.reasoning_effort).toBe('medium');
    expect(thinkingBudgetOf(request)).toBe(10000);
    expect(JSON.stringify(request)).not.toContain('10000');
    expect(thinkingBudgetOf({ ...request })).toBe(10000);
    expect(effortForBudget(1024)).toBe('minimal');
    expect(effortForBudget(1500)).toBe('minimal');
    expect(effortForBudget(3000)).toBe('low');
    expect(effortForBudget(16000)).toBe('medium');
    expect(effortForBudget(31999)).toBe('high');
    const off = toChat({ ...base, messages: [{ role: 'user', content: 'x' }], thinking: { type: 'disabled' } });
    expect(off).not.toHaveProperty('reasoning_effort');
  });

  it('keeps assistant thinking as reasoning_content and drops redacted thinking', () => {
    const request = toChat({
      ...base,
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm.', signature: 'sig' },
            { type: 'redacted_thinking', data: 'abc' },
            { type: 'text', text: 'Part one, ' },
            { type: 'text', text: 'part two.' },
          ],
        },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: 'Part one, part two.',
      reasoning_content: 'Hmm.',
    });
  });

  it.each([
    [{ max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }, /^model:/],
    [{ model: 'm', messages: [{ role: 'user', content: 'x' }] }, /^max_tokens:/],
    [{ model: 'm', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] }, /^max_tokens:/],
    [{ model: 'm', max_tokens: 1.5, messages: [{ role: 'user', content: 'x' }] }, /^max_tokens:/],
    [{ model: 'm', max_tokens: 1, messages: [] }, /^messages:/],
    [{ model: 'm', max_tokens: 1, messages: 'hi' }, /^messages:/],
    [{ ...base, messages: [{ role: 'system', content: 'x' }] }, /^messages\[0\]\.role:/],
    [{ ...base, messages: [{ role: 'user', content: 5 }] }, /^messages\[0\]\.content:/],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'audio' }] }] }, /^messages\[0\]\.content\[0\]\.type:/],
    [
      {
        ...base,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: [{ type: 'image', source: {} }] },
        ],
      },
      /^messages\[1\]\.content\[0\]\.source\.type:/,
    ],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] },
      /^messages\[0\]\.content\[0\]\.tool_use_id:/,
    ],
    [{ ...base, system: 5, messages: [{ role: 'user', content: 'x' }] }, /^system:/],
    [
      {
        ...base,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
        messages: [{ role: 'user', content: 'x' }],
      },
      /^tools\[0\]\.type:/,
    ],
    [{ ...base, tools: [{ name: 'f' }], messages: [{ role: 'user', content: 'x' }] }, /^tools\[0\]\.input_schema:/],
    [{ ...base, tool_choice: { type: 'tool' }, messages: [{ role: 'user', content: 'x' }] }, /^tool_choice\.name:/],
    [{ ...base, tool_choice: { type: 'maybe' }, messages: [{ role: 'user', content: 'x' }] }, /^tool_choice\.type:/],
    [
      { ...base, thinking: { type: 'enabled' }, messages: [{ role: 'user', content: 'x' }] },
      /^thinking\.budget_tokens:/,
    ],
    [{ ...base, stop_sequences: 'END', messages: [{ role: 'user', content: 'x' }] }, /^stop_sequences:/],
    [{ ...base, temperature: 'hot', messages: [{ role: 'user', content: 'x' }] }, /^temperature:/],
  ])('refuses bad input naming the field (%#)', (body, message) => {
    expect(() => toChat(body as Json)).toThrow(message);
  });
});

const completion = (
  message: Partial<ChatCompletion['choices'][number]['message']>,
  finish: string,
  usage?: ChatUsage,
) =>
  ({
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  }) as ChatCompletion;

describe('anthropicSurface.fromChat', () => {
  it('builds a message with usage that excludes cached input', () => {
    const usage: ChatUsage = {
      prompt_tokens: 1000,
      completion_tokens: 50,
      total_tokens: 1050,
      prompt_tokens_details: { cached_tokens: 600, cached_write_tokens: 100 },
    };
    expect(anthropicSurface.fromChat(completion({ content: 'Hello!' }, 'stop', usage), 'claude-sonnet-4-5')).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 300, output_tokens: 50, cache_read_input_tokens: 600, cache_creation_input_tokens: 100 },
    });
  });

  it('orders thinking, text and tool_use blocks', () => {
    const message = anthropicSurface.fromChat(
      completion(
        {
          content: 'Let me check.',
          reasoning_content: 'Need weather.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"SF"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: 'oops' } },
          ],
        },
        'tool_calls',
      ),
      'm',
    );
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Need weather.', signature: '' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'SF' } },
      { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it('maps every finish reason', () => {
    const stop = (finish: string, toolCalls = false) =>
      anthropicSurface.fromChat(
        completion(
          {
            content: 'x',
            ...(toolCalls
              ? { tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }
              : {}),
          },
          finish,
        ),
        'm',
      ).stop_reason;
    expect(stop('stop')).toBe('end_turn');
    expect(stop('length')).toBe('max_tokens');
    expect(stop('tool_calls')).toBe('tool_use');
    expect(stop('function_call')).toBe('tool_use');
    expect(stop('content_filter')).toBe('refusal');
    expect(stop('stop', true)).toBe('tool_use');
  });
});

const chunk = (delta: Json, finish: string | null = null): ChatChunk =>
  ({
    id: 'chatcmpl-abc',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) as ChatChunk;
const usageChunk = (usage: ChatUsage): ChatChunk => ({
  id: 'chatcmpl-abc',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [],
  usage,
});
const call = (index: number, args: string, id?: string, name?: string) => ({
  tool_calls: [
    { index, ...(id ? { id, type: 'function' } : {}), function: { ...(name ? { name } : {}), arguments: args } },
  ],
});

function encode(chunks: ChatChunk[], usage?: ChatUsage): string {
  const encoder = anthropicSurface.encodeStream('claude-sonnet-4-5');
  return chunks.map((item) => encoder.push(item)).join('') + encoder.end(usage);
}

describe('anthropicSurface.encodeStream', () => {
  it('emits the full event sequence for a text stream', () => {
    const text = encode(
      [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hello' }),
        chunk({ content: '!' }),
        chunk({}, 'stop'),
      ],
      { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 },
    );
    const events = parseSse(text);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]?.data).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_abc',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    });
    expect(events[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(events[2]?.data).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Hello' },
    });
    expect(events[5]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 25, output_tokens: 15, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
    expect(text.startsWith('event: message_start\ndata: {')).toBe(true);
  });

  it('opens thinking, text and each tool_use block in turn with increasing indices', () => {
    const events = parseSse(
      encode([
        chunk({ role: 'assistant', reasoning_content: 'Need ' }),
        chunk({ reasoning_content: 'weather.' }),
        chunk({ content: 'Checking.' }),
        chunk(call(0, '', 'call_1', 'get_weather')),
        chunk(call(0, '{"location":')),
        chunk(call(0, '"SF"}')),
        chunk(call(1, '{"timezone":"UTC"}', 'call_2', 'get_time')),
        chunk({}, 'tool_calls'),
        usageChunk({
          prompt_tokens: 100,
          completion_tokens: 20,
          total_tokens: 120,
          prompt_tokens_details: { cached_tokens: 40 },
        }),
      ]),
    );
    const message = accumulateAnthropic(events);
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Need weather.', signature: '' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'SF' } },
      { type: 'tool_use', id: 'call_2', name: 'get_time', input: { timezone: 'UTC' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toEqual({
      input_tokens: 60,
      output_tokens: 20,
      cache_read_input_tokens: 40,
      cache_creation_input_tokens: 0,
    });
    const starts = events.filter((event) => event.event === 'content_block_start').map((event) => event.data.index);
    expect(starts).toEqual([0, 1, 2, 3]);
  });

  it('keeps a valid block order when text interleaves with a tool call', () => {
    const events = parseSse(
      encode([
        chunk(call(0, '{"a":', 'call_1', 'f')),
        chunk({ content: 'Meanwhile, ' }),
        chunk(call(0, '1}')),
        chunk({ content: 'more text.' }),
        chunk(call(1, '{}', 'call_2', 'g')),
        chunk({ content: ' The end.' }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const message = accumulateAnthropic(events);
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
      { type: 'text', text: 'Meanwhile, more text.' },
      { type: 'tool_use', id: 'call_2', name: 'g', input: {} },
      { type: 'text', text: ' The end.' },
    ]);
  });

  it('drops argument fragments of a tool call whose block is closed instead of breaking the order', () => {
    const events = parseSse(
      encode([
        chunk(call(0, '{}', 'call_1', 'f')),
        chunk(call(1, '{"b":2}', 'call_2', 'g')),
        chunk(call(0, ' ')),
        chunk({}, 'tool_calls'),
      ]),
    );
    const message = accumulateAnthropic(events);
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: {} },
      { type: 'tool_use', id: 'call_2', name: 'g', input: { b: 2 } },
    ]);
  });

  it('maps finish reasons and prefers the usage given to end', () => {
    const finish = (reason: string) =>
      accumulateAnthropic(parseSse(encode([chunk({ content: 'x' }), chunk({}, reason)]))).stop_reason;
    expect(finish('stop')).toBe('end_turn');
    expect(finish('length')).toBe('max_tokens');
    expect(finish('content_filter')).toBe('refusal');
    const message = accumulateAnthropic(
      parseSse(
        encode([chunk({ content: 'x' }), usageChunk({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 })], {
          prompt_tokens: 9,
          completion_tokens: 3,
          total_tokens: 12,
        }),
      ),
    );
    expect(message.usage).toMatchObject({ input_tokens: 9, output_tokens: 3 });
  });

  it('ends an empty stream with a complete, empty message', () => {
    const message = accumulateAnthropic(parseSse(encode([])));
    expect(message).toMatchObject({ id: 'msg_stream', content: [], stop_reason: 'end_turn' });
  });
});

describe('anthropicSurface.errorBody', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [529, 'overloaded_error'],
    [500, 'api_error'],
    [502, 'api_error'],
  ])('%i → %s', (status, type) => {
    expect(anthropicSurface.errorBody(status, 'boom')).toEqual({ type: 'error', error: { type, message: 'boom' } });
  });

  it('keeps an Anthropic error type from upstream and ignores foreign ones', () => {
    expect(anthropicSurface.errorBody(503, 'Overloaded', 'overloaded_error')).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    expect(anthropicSurface.errorBody(503, 'x', 'upstream_error')).toMatchObject({ error: { type: 'api_error' } });
  });
});
