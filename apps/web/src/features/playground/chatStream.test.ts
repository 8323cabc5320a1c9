import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatError, type ChatUsage, errorMessageOf, SseLineReader, streamChat } from './chatStream.js';

describe('SseLineReader', () => {
  it('returns data payloads however the text was cut, skipping comments and other fields', () => {
    const reader = new SseLineReader();
    expect(reader.push('data: {"a"')).toEqual([]);
    expect(reader.push(':1}\n\n: ping\nevent: x\r\ndata: [DO')).toEqual(['{"a":1}']);
    expect(reader.push('NE]\n')).toEqual(['[DONE]']);
    expect(reader.push('data:tail')).toEqual([]);
    expect(reader.finish()).toEqual(['tail']);
  });
});

describe('errorMessageOf', () => {
  it('reads the OpenAI envelope and simpler shapes', () => {
    expect(errorMessageOf({ error: { message: 'bad model', type: 'x' } })).toBe('bad model');
    expect(errorMessageOf({ error: 'plain' })).toBe('plain');
    expect(errorMessageOf({ message: 'top level' })).toBe('top level');
    expect(errorMessageOf({ error: {} })).toBeUndefined();
    expect(errorMessageOf('text')).toBeUndefined();
  });
});

function sseResponse(pieces: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

async function run(response: Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response),
  );
  const deltas: string[] = [];
  let usage: ChatUsage | undefined;
  const result = streamChat(
    {
      key: 'sk-test',
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 1,
      signal: new AbortController().signal,
    },
    { onDelta: (text) => deltas.push(text), onUsage: (value) => (usage = value) },
  );
  return { result, deltas, usage: () => usage };
}

describe('streamChat', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a streamed request with the key and reports deltas and usage', async () => {
    const usageChunk = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\n\n`;
    const { result, deltas, usage } = await run(
      sseResponse([
        chunk('Hel'),
        `${chunk('lo').slice(0, 10)}`,
        `${chunk('lo').slice(10)}`,
        usageChunk,
        'data: [DONE]\n\n',
      ]),
    );
    await result;
    expect(deltas.join('')).toBe('Hello');
    expect(usage()).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    const [url, init] = vi.mocked(fetch).mock.calls[0] ?? [];
    expect(url).toBe('/v1/chat/completions');
    expect((init?.headers as Record<string, string> | undefined)?.Authorization).toBe('Bearer sk-test');
    expect(JSON.parse(String(init?.body))).toMatchObject({ stream: true, model: 'm', temperature: 1 });
  });

  it('rejects with the server’s message when the request fails', async () => {
    const response = new Response(JSON.stringify({ error: { message: 'model not found (request id: 1)' } }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
    const { result } = await run(response);
    await expect(result).rejects.toEqual(new ChatError('model not found (request id: 1)', 404));
  });

  it('rejects with an error written into the stream', async () => {
    const failure = `data: ${JSON.stringify({ error: { message: 'upstream broke', type: 'upstream_error' } })}\n\n`;
    const { result, deltas } = await run(sseResponse([chunk('partial'), failure]));
    await expect(result).rejects.toThrow('upstream broke');
    expect(deltas).toEqual(['partial']);
  });

  it('accepts an answer that was not streamed', async () => {
    const whole = {
      choices: [{ message: { role: 'assistant', content: 'all at once' } }],
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    };
    const { result, deltas, usage } = await run(
      new Response(JSON.stringify(whole), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    await result;
    expect(deltas).toEqual(['all at once']);
    expect(usage()).toEqual({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
  });
});
