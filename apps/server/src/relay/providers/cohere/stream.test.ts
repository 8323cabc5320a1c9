import { describe, expect, it } from 'vitest';
import { accumulateChunks, decodeInSlices } from '../../../../test/providers/anthropic/test-support.js';
import { context, fixture } from '../../../../test/providers/cohere/test-support.js';
import type { ChatChunk } from '../types.js';
import { cohereAdapter } from './adapter.js';

const decoder = () => cohereAdapter.decodeStream(context({ stream: true }));
const decode = (name: string, size?: number) => {
  const bytes = fixture(name);
  return decodeInSlices(decoder(), bytes, size ?? bytes.length);
};

describe('cohereAdapter.decodeStream', () => {
  it('translates the documented text stream, delta by delta, with the usage chunk last', () => {
    const chunks = decode('stream-text.sse');
    const answer = accumulateChunks(chunks);
    expect(answer).toMatchObject({
      role: 'assistant',
      content: 'Hello! How can I help you today?',
      finish: 'stop',
      usage: { prompt_tokens: 69, completion_tokens: 9, total_tokens: 78 },
    });
    // Role, nine deltas, finish, usage: nothing gathered.
    expect(chunks).toHaveLength(12);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).map((c) => c.choices[0]?.delta.content)).toEqual([
      'Hello',
      '!',
      ' How',
      ' can',
      ' I',
      ' help',
      ' you',
      ' today',
      '?',
    ]);
    expect(chunks[0]).toEqual({
      id: 'chatcmpl-cohere1',
      object: 'chat.completion.chunk',
      created: 1_760_000_000,
      model: 'command-a-03-2025',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 69 } });
  });

  it('gives the same answer whatever the byte boundaries, even inside UTF-8 characters', () => {
    for (const name of ['stream-text.sse', 'stream-thinking.sse', 'stream-tool-calls.sse']) {
      const whole = accumulateChunks(decode(name));
      for (const size of [1, 2, 3, 5, 7, 64]) {
        expect(accumulateChunks(decode(name, size)), `${name} in slices of ${size}`).toEqual(whole);
      }
    }
  });

  it('streams a tool plan as content and parallel tool calls with arguments split across events', () => {
    const chunks = decode('stream-tool-calls.sse');
    const answer = accumulateChunks(chunks);
    expect(answer.content).toBe('I will check the weather in Toronto and Paris.');
    expect(answer.toolCalls).toEqual([
      { id: 'get_weather_nsz5zm3w56q3', name: 'get_weather', arguments: '{\n    "location": "Toronto"\n}' },
      { id: 'get_weather_k88p0m8504w5', name: 'get_weather', arguments: '{\n    "location": "Paris"\n}' },
    ]);
    expect(answer.finish).toBe('tool_calls');
    expect(answer.usage).toEqual({
      prompt_tokens: 793,
      completion_tokens: 61,
      total_tokens: 854,
      prompt_tokens_details: { cached_tokens: 176 },
    });
    // Cohere's indices 1 and 2 become OpenAI's 0 and 1; each fragment is its own delta.
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments.map((call) => call.index)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(fragments.filter((call) => call.index === 0 && !call.id).map((call) => call.function.arguments)).toEqual([
      '{\n    "',
      'location',
      '":',
      ' "Toronto"',
      '\n}',
    ]);
  });

  it('forwards a tool-call fragment as soon as its event is complete', () => {
    const stream = decoder();
    stream.push(Buffer.from('event: message-start\ndata: {"type":"message-start","id":"x"}\n\n'));
    stream.push(
      Buffer.from(
        'event: tool-call-start\ndata: {"type":"tool-call-start","index":0,"delta":{"message":{"tool_calls":{"id":"c1","type":"function","function":{"name":"f","arguments":""}}}}}\n\n',
      ),
    );
    const half = 'event: tool-call-delta\ndata: {"type":"tool-call-delta","index":0,"delta":{"message":{"tool_calls":';
    expect(stream.push(Buffer.from(half))).toEqual([]);
    const out = stream.push(Buffer.from('{"function":{"arguments":"{\\"a\\":"}}}}}\n\n'));
    expect(out.map((chunk) => chunk.choices[0]?.delta.tool_calls)).toEqual([
      [{ index: 0, function: { arguments: '{"a":' } }],
    ]);
  });

  it('streams thinking as reasoning_content, ends at MAX_TOKENS and ignores a trailing [DONE]', () => {
    const answer = accumulateChunks(decode('stream-thinking.sse'));
    expect(answer.reasoning).toBe('El usuario saluda en español — «¡hola!». Respondo con cortesía 🙂.');
    expect(answer.content).toBe('¡Hola de nuevo! ¿En qué puedo ayudarte? ✅');
    expect(answer.finish).toBe('length');
    expect(answer.usage).toMatchObject({ prompt_tokens: 1402, completion_tokens: 40 });
  });

  it('ignores citations and maps STOP_SEQUENCE to stop, with billed units for usage', () => {
    const answer = accumulateChunks(decode('stream-stop-sequence-citations.sse'));
    expect(answer.content).toBe('We offer gym memberships.');
    expect(answer.finish).toBe('stop');
    expect(answer.usage).toEqual({ prompt_tokens: 24, completion_tokens: 11, total_tokens: 35 });
  });

  it('reads CRLF-framed events', () => {
    const crlf = Buffer.from(fixture('stream-text.sse').toString('utf8').replace(/\n/g, '\r\n'));
    expect(accumulateChunks(decodeInSlices(decoder(), crlf, 11)).content).toBe('Hello! How can I help you today?');
  });

  it('raises finish_reason ERROR with Cohere’s message, after what came before it', () => {
    const stream = decoder();
    const text = fixture('stream-error.sse').toString('utf8');
    const cut = text.indexOf('event: message-end');
    const before = stream.push(Buffer.from(text.slice(0, cut)));
    expect(accumulateChunks(before).content).toBe('Partial');
    expect(() => stream.push(Buffer.from(text.slice(cut)))).toThrow(
      'the upstream failed while generating: internal server error, this has been reported to our developers',
    );
  });

  it('raises an error object written into the stream', () => {
    const stream = decoder();
    expect(() => stream.push(Buffer.from('data: {"message":"too many tokens"}\n\n'))).toThrow(
      'the upstream stream failed: too many tokens',
    );
  });

  it('reports a stream cut mid-way, after handing over what was complete', () => {
    const bytes = fixture('stream-tool-calls.sse');
    const stream = decoder();
    const cut = Math.floor(bytes.length / 2);
    const chunks: ChatChunk[] = stream.push(bytes.subarray(0, cut));
    expect(accumulateChunks(chunks).toolCalls[0]?.name).toBe('get_weather');
    expect(() => stream.end()).toThrow('the upstream stream ended before the message was complete');
    // Cut between two events: nothing is half-read, the message is still incomplete.
    const text = bytes.toString('utf8');
    const atBoundary = decoder();
    atBoundary.push(Buffer.from(text.slice(0, text.indexOf('event: message-end'))));
    expect(() => atBoundary.end()).toThrow('the upstream stream ended before the message was complete');
  });

  it('names an event that is not JSON', () => {
    expect(() => decoder().push(Buffer.from('event: content-delta\ndata: {not json\n\n'))).toThrow(
      "the upstream's stream event is not JSON: {not json",
    );
  });

  it('ends cleanly without usage when message-end has none', () => {
    const stream = decoder();
    const out = stream.push(
      Buffer.from('event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"COMPLETE"}}'),
    );
    expect(out).toEqual([]);
    const rest = stream.end();
    expect(rest.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([null, 'stop']);
    expect(rest.some((chunk) => chunk.usage)).toBe(false);
  });
});
