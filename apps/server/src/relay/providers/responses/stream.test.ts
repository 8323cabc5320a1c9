import { describe, expect, it } from 'vitest';
import {
  chunksOf,
  encodeAll,
  fixture,
  parseEvents,
  readResponsesStream,
  type StreamEvent,
} from '../../../../test/providers/responses/test-support.js';
import type { ChatChunk, ChatChunkToolCall, Json } from '../types.js';
import { responsesToChat } from './request.js';
import { responsesFromChat } from './response.js';
import { responsesStreamEncoder, responsesStreamError } from './stream.js';

function encode(name: string, slice?: number): { events: StreamEvent[]; response: Json } {
  const text = encodeAll(responsesStreamEncoder('gpt-test'), chunksOf(name, slice));
  const events = parseEvents(text);
  return { events, response: readResponsesStream(events) };
}

const types = (events: StreamEvent[]): string[] => events.map(({ event }) => event);

function chunk(
  delta: ChatChunk['choices'][number]['delta'],
  finish: ChatChunk['choices'][number]['finish_reason'] = null,
): ChatChunk {
  return {
    id: 'chatcmpl-synthetic',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}
const call = (index: number, args: string, id?: string, name?: string): ChatChunkToolCall => ({
  index,
  ...(id ? { id, type: 'function' as const } : {}),
  function: { ...(name ? { name } : {}), arguments: args },
});

describe('canonical chunks → Responses events', () => {
  it('a text stream follows OpenAI’s documented event sequence', () => {
    const { events, response } = encode('stream-text.sse');
    const documented = parseEvents(fixture('responses-stream-documented-text.sse').toString('utf8'));
    // The same events in the same order, the deltas repeated once per upstream piece.
    const collapse = (list: string[]) => list.filter((type, index) => type !== list[index - 1]);
    expect(collapse(types(events))).toEqual(collapse(types(documented)));
    expect(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta)).toEqual([
      'Hello',
      ' from Zürich 🦄',
      '!',
    ]);
    // Each event carries the fields OpenAI documents for it.
    for (const { event, data } of documented) {
      const mine = events.find((e) => e.event === event);
      for (const field of Object.keys(data)) {
        if (field !== 'response') expect(mine?.data, `${event}.${field}`).toHaveProperty(field);
      }
    }
    expect(response).toMatchObject({
      id: 'resp_123',
      status: 'completed',
      created_at: 1694268190,
      model: 'gpt-test',
      output_text: 'Hello from Zürich 🦄!',
      usage: {
        input_tokens: 9,
        input_tokens_details: { cached_tokens: 4 },
        output_tokens: 6,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    });
    const created = events[0]?.data.response as Json;
    expect(created).toMatchObject({ id: 'resp_123', status: 'in_progress', output: [], usage: null });
  });

  it('sequence numbers count up from 0 and every item event names its item and indexes', () => {
    const { events } = encode('stream-text.sse');
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_e, index) => index));
    const delta = events.find((e) => e.event === 'response.output_text.delta')?.data;
    expect(delta).toMatchObject({ item_id: 'msg_123_0', output_index: 0, content_index: 0 });
  });

  it('streamed tool-call arguments split across chunks: added, deltas, done, item done per call', () => {
    const { events, response } = encode('stream-tool-calls.sse');
    const documented = parseEvents(fixture('responses-stream-documented-function-call.sse').toString('utf8'));
    const first = events.filter((e) => e.data.output_index === 0 && e.event !== 'response.completed');
    const collapse = (list: string[]) => list.filter((type, index) => type !== list[index - 1]);
    expect(collapse(types(first))).toEqual(collapse(types(documented)));
    const added = events.find((e) => e.event === 'response.output_item.added')?.data.item as Json;
    expect(added).toEqual({
      id: 'fc_tools1_0',
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
      name: 'get_current_weather',
    });
    expect(
      events
        .filter((e) => e.event === 'response.function_call_arguments.delta' && e.data.output_index === 0)
        .map((e) => e.data.delta),
    ).toEqual(['{"lo', 'cation": "Bos', 'ton, MA"}']);
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        id: 'fc_tools1_0',
        type: 'function_call',
        status: 'completed',
        arguments: '{"location": "Boston, MA"}',
        call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
        name: 'get_current_weather',
      },
      {
        id: 'fc_tools1_1',
        type: 'function_call',
        status: 'completed',
        arguments: '{"location": "Tōkyō"}',
        call_id: 'call_SS1u5WDmvNXMrWgj4u4YVt7C',
        name: 'get_current_weather',
      },
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 82, input_tokens_details: { cached_tokens: 64 } });
  });

  it('reasoning deltas stream as a reasoning summary item before the message', () => {
    const { events, response } = encode('stream-reasoning.sse');
    expect(types(events).slice(0, 6)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
    ]);
    expect(response.output).toEqual([
      {
        id: 'rs_ds1_0',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Compare the tenths: 9.8 has 8, 9.11 has 1.' }],
      },
      {
        id: 'msg_ds1_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: '9.8 is greater.', annotations: [], logprobs: [] }],
      },
    ]);
    expect(response.usage).toMatchObject({ output_tokens: 120, output_tokens_details: { reasoning_tokens: 98 } });
  });

  it('finish length ends with response.incomplete (max_output_tokens) and an incomplete message', () => {
    const { events, response } = encode('stream-length.sse');
    expect(events.at(-1)?.event).toBe('response.incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect((response.output as Json[])[0]).toMatchObject({ status: 'incomplete' });
    expect(events.find((e) => e.event === 'response.output_item.done')?.data.item).toMatchObject({
      status: 'incomplete',
    });
    expect(response.usage).toMatchObject({ input_tokens: 20, output_tokens: 3, total_tokens: 23 });
  });

  it.each([
    ['stop', 'response.completed', null],
    ['tool_calls', 'response.completed', null],
    ['length', 'response.incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'response.incomplete', { reason: 'content_filter' }],
  ] as const)('finish_reason %s → %s', (finish, terminal, details) => {
    const encoder = responsesStreamEncoder('m');
    const text = encoder.push(chunk({ content: 'x' })) + encoder.push(chunk({}, finish)) + encoder.end(undefined);
    const events = parseEvents(text);
    expect(events.at(-1)?.event).toBe(terminal);
    expect(readResponsesStream(events).incomplete_details).toEqual(details);
  });

  it('the stream’s final response equals the whole answer’s for the same content', () => {
    const { response } = encode('stream-tool-calls.sse');
    const whole = responsesFromChat(
      {
        id: 'chatcmpl-tools1',
        object: 'chat.completion',
        created: 1723000000,
        model: 'gpt-4o-mini',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
                  type: 'function',
                  function: { name: 'get_current_weather', arguments: '{"location": "Boston, MA"}' },
                },
                {
                  id: 'call_SS1u5WDmvNXMrWgj4u4YVt7C',
                  type: 'function',
                  function: { name: 'get_current_weather', arguments: '{"location": "Tōkyō"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 82,
          completion_tokens: 37,
          total_tokens: 119,
          prompt_tokens_details: { cached_tokens: 64 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      },
      'gpt-test',
    );
    expect(response).toEqual(whole);
  });

  it('text, then calls, then more text: the message closes, the late text is a new message item', () => {
    const encoder = responsesStreamEncoder('m');
    const text =
      encoder.push(chunk({ role: 'assistant', content: 'Let me look.' })) +
      encoder.push(chunk({ tool_calls: [call(0, '{"q":', 'call_a', 'search')] })) +
      encoder.push(chunk({ tool_calls: [call(0, '1}')] })) +
      encoder.push(chunk({ content: 'Also…' })) +
      encoder.push(chunk({}, 'tool_calls')) +
      encoder.end({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
    const response = readResponsesStream(parseEvents(text));
    expect((response.output as Json[]).map((item) => [item.type, item.id])).toEqual([
      ['message', 'msg_synthetic_0'],
      ['function_call', 'fc_synthetic_1'],
      ['message', 'msg_synthetic_2'],
    ]);
    expect((response.output as Json[])[1]).toMatchObject({ arguments: '{"q":1}', call_id: 'call_a', name: 'search' });
    expect(response.output_text).toBe('Let me look.Also…');
    expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 6, total_tokens: 11 });
  });

  it('interleaved parallel call fragments are placed by call index', () => {
    const encoder = responsesStreamEncoder('m');
    const text =
      encoder.push(chunk({ tool_calls: [call(0, '{"a"', 'call_0', 'f'), call(1, '{"b"', 'call_1', 'g')] })) +
      encoder.push(chunk({ tool_calls: [call(1, ':2}')] })) +
      encoder.push(chunk({ tool_calls: [call(0, ':1}')] })) +
      encoder.push(chunk({}, 'tool_calls')) +
      encoder.end(undefined);
    const output = readResponsesStream(parseEvents(text)).output as Json[];
    expect(output.map((item) => [item.call_id, item.name, item.arguments])).toEqual([
      ['call_0', 'f', '{"a":1}'],
      ['call_1', 'g', '{"b":2}'],
    ]);
  });

  it('a call without an id gets one; a refusal streams as a refusal part', () => {
    const encoder = responsesStreamEncoder('m');
    const text =
      encoder.push(chunk({ refusal: "I can't" })) +
      encoder.push(chunk({ refusal: ' help.' })) +
      encoder.push(chunk({ tool_calls: [call(0, '{}', undefined, 'f')] })) +
      encoder.end(undefined);
    const events = parseEvents(text);
    expect(types(events)).toContain('response.refusal.delta');
    const output = readResponsesStream(events).output as Json[];
    expect(output[0]).toMatchObject({ content: [{ type: 'refusal', refusal: "I can't help." }] });
    expect(output[1]).toMatchObject({ call_id: 'call_synthetic_0', name: 'f', arguments: '{}' });
  });

  it('text after a refusal in the same message opens a new content part', () => {
    const encoder = responsesStreamEncoder('m');
    const text =
      encoder.push(chunk({ refusal: 'no' })) + encoder.push(chunk({ content: 'but' })) + encoder.end(undefined);
    const output = readResponsesStream(parseEvents(text)).output as Json[];
    expect(output).toHaveLength(1);
    expect((output[0] as Json).content).toEqual([
      { type: 'refusal', refusal: 'no' },
      { type: 'output_text', text: 'but', annotations: [], logprobs: [] },
    ]);
  });

  it('an empty upstream stream still gives a well-formed, completed, empty response', () => {
    const encoder = responsesStreamEncoder('m');
    const events = parseEvents(encoder.end(undefined));
    expect(types(events)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(readResponsesStream(events)).toMatchObject({ status: 'completed', output: [], output_text: '' });
    // end is final: nothing is written twice.
    expect(encoder.end(undefined)).toBe('');
    expect(encoder.push(chunk({ content: 'late' }))).toBe('');
  });

  it('usage from the chunks is used when end gets none; end’s usage wins otherwise', () => {
    const chunks = chunksOf('stream-text.sse');
    const encoder = responsesStreamEncoder('m');
    let text = '';
    for (const item of chunks) text += encoder.push(item);
    text += encoder.end({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    expect(readResponsesStream(parseEvents(text)).usage).toMatchObject({ input_tokens: 1, output_tokens: 2 });
    const second = responsesStreamEncoder('m');
    let other = '';
    for (const item of chunks) other += second.push(item);
    other += second.end(undefined);
    expect(readResponsesStream(parseEvents(other)).usage).toMatchObject({ input_tokens: 9, output_tokens: 6 });
  });

  it('a stream cut mid-way: fail() ends it with response.failed holding what was sent', () => {
    const chunks = chunksOf('stream-tool-calls.sse').slice(0, 3);
    const encoder = responsesStreamEncoder('m');
    let text = '';
    for (const item of chunks) text += encoder.push(item);
    text += encoder.fail('the upstream stream broke off');
    const events = parseEvents(text);
    expect(events.at(-1)?.event).toBe('response.failed');
    const response = readResponsesStream(events);
    expect(response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'the upstream stream broke off' },
      usage: null,
    });
    expect(response.output).toEqual([
      {
        id: 'fc_tools1_0',
        type: 'function_call',
        status: 'incomplete',
        arguments: '{"location": "Bos',
        call_id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
        name: 'get_current_weather',
      },
    ]);
    expect(encoder.end(undefined)).toBe('');
  });

  it('a cut stream that simply ends (no finish reason) closes every item and completes', () => {
    const chunks = chunksOf('stream-reasoning.sse').slice(0, 4);
    const { output } = readResponsesStream(parseEvents(encodeAll(responsesStreamEncoder('m'), chunks)));
    expect((output as Json[]).map((item) => item.type)).toEqual(['reasoning', 'message']);
  });

  it('the stateless error event has OpenAI’s error shape', () => {
    const [event] = parseEvents(responsesStreamError('boom'));
    expect(event).toEqual({
      event: 'error',
      data: { type: 'error', code: 'server_error', message: 'boom', param: null, sequence_number: 0 },
    });
  });

  it('the same events whatever the byte slicing of the upstream stream, inside multi-byte characters too', () => {
    for (const name of ['stream-text.sse', 'stream-tool-calls.sse', 'stream-reasoning.sse']) {
      const whole = readResponsesStream(parseEvents(encodeAll(responsesStreamEncoder('m'), chunksOf(name))));
      for (const size of [1, 2, 3, 5, 7, 64]) {
        const sliced = readResponsesStream(parseEvents(encodeAll(responsesStreamEncoder('m'), chunksOf(name, size))));
        expect(sliced, `${name} in ${size}-byte slices`).toEqual(whole);
      }
    }
  });

  it('echoes the request fields in every response-carrying event when given the request', () => {
    const request = responsesToChat({ model: 'm', instructions: 'Be brief.', input: 'hi', metadata: { a: '1' } }, 'm');
    const encoder = responsesStreamEncoder('m', request);
    const events = parseEvents(encoder.push(chunk({ content: 'ok' })) + encoder.end(undefined));
    for (const { data } of events.filter((e) => e.data.response)) {
      expect(data.response).toMatchObject({ instructions: 'Be brief.', metadata: { a: '1' } });
    }
  });
});
