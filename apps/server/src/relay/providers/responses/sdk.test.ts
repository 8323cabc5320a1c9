import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, completionFixture } from '../../../../test/providers/responses/test-support.js';
import type { ChatChunk, ChatCompletion, Json } from '../types.js';
import { type ResponsesStreamEncoder, responsesStreamEncoder } from './stream.js';
import { responsesSurface } from './surface.js';

/**
 * The official `openai` SDK reading what this surface writes. A local node:http server plays the
 * relay: it translates the SDK's request with `toChat` (a 400 in OpenAI's envelope when that
 * throws), takes a canned canonical answer chosen by the model name, and answers with `fromChat`
 * or the stream encoder's events. The relay wiring itself (`/v1/responses` → a translated
 * channel, billing) is the lead's end-to-end test.
 */

const CALENDAR = { name: 'science fair', date: 'Friday', participants: ['Alice', 'Bob'] };

function canned(model: string): { whole: ChatCompletion; chunks: ChatChunk[] } {
  switch (model) {
    case 'tools':
      return { whole: completionFixture('completion-tool-calls.json'), chunks: chunksOf('stream-tool-calls.sse') };
    case 'reasoning':
      return { whole: completionFixture('completion-reasoning.json'), chunks: chunksOf('stream-reasoning.sse') };
    case 'length':
      return { whole: completionFixture('completion-length.json'), chunks: chunksOf('stream-length.sse') };
    case 'json': {
      const whole = completionFixture('completion-text.json');
      (whole.choices[0] as { message: { content: string } }).message.content = JSON.stringify(CALENDAR);
      return { whole, chunks: chunksOf('stream-text.sse') };
    }
    default:
      return { whole: completionFixture('completion-text.json'), chunks: chunksOf('stream-text.sse') };
  }
}

async function readBody(request: IncomingMessage): Promise<Json> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Json;
}

let server: Server;
let client: OpenAI;
const received: Json[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      received.push(body);
      const model = String(body.model);
      if (model === 'rate-limited') {
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(JSON.stringify(responsesSurface.errorBody(429, 'Rate limit reached for requests')));
        return;
      }
      let chat: ReturnType<typeof responsesSurface.toChat>;
      try {
        chat = responsesSurface.toChat(body, model);
      } catch (error) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify(responsesSurface.errorBody(400, (error as Error).message)));
        return;
      }
      const answer = canned(model);
      if (body.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(responsesSurface.fromChat(answer.whole, model)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const encoder = responsesStreamEncoder(model, chat) as ResponsesStreamEncoder;
      let usage: ChatChunk['usage'];
      const chunks = model === 'broken' ? answer.chunks.slice(0, 3) : answer.chunks;
      // One write per chunk, as the relay forwards them.
      for (const chunk of chunks) {
        if (chunk.usage) usage = chunk.usage;
        const text = encoder.push(chunk);
        if (text) response.write(text);
      }
      response.end(
        model === 'broken' ? encoder.fail('the upstream stream broke off') : encoder.end(usage ?? undefined),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the openai SDK reads the Responses surface', () => {
  it('responses.create: output_text, items and usage', async () => {
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'Say hello' });
    expect(response.output_text).toBe('Hello! How can I assist you today?');
    expect(response.status).toBe('completed');
    expect(response.usage?.input_tokens).toBe(19);
    expect(received.at(-1)).toMatchObject({ model: 'gpt-4.1', input: 'Say hello' });
  });

  it('responses.create: function calls as the SDK types them', async () => {
    const response = await client.responses.create({
      model: 'tools',
      input: 'Weather in Boston and Tokyo?',
      tools: [{ type: 'function', name: 'get_current_weather', parameters: { type: 'object' }, strict: false }],
    });
    const calls = response.output.filter((item) => item.type === 'function_call');
    expect(calls.map((item) => [item.call_id, item.name])).toEqual([
      ['call_abc123', 'get_current_weather'],
      ['call_def456', 'get_current_weather'],
    ]);
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(64);
  });

  it('responses.create({stream: true}): every event arrives, ending with response.completed', async () => {
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'Say hello', stream: true });
    const seen: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(seen[0]).toBe('response.created');
    expect(seen).toContain('response.content_part.added');
    expect(text).toBe('Hello from Zürich 🦄!');
    expect(completed?.output_text).toBe('Hello from Zürich 🦄!');
    expect(completed?.usage).toMatchObject({ input_tokens: 9, output_tokens: 6, total_tokens: 15 });
  });

  it('responses.stream(): snapshots, function-call arguments and finalResponse()', async () => {
    const snapshots: string[] = [];
    const stream = client.responses
      .stream({
        model: 'tools',
        input: 'Weather in Boston and Tokyo?',
        tools: [{ type: 'function', name: 'get_current_weather', parameters: { type: 'object' }, strict: false }],
      })
      .on('response.function_call_arguments.delta', (event) => snapshots.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(snapshots.at(-1)).toBe('{"location": "Tōkyō"}');
    const calls = final.output.filter((item) => item.type === 'function_call');
    expect(calls.map((item) => JSON.parse(item.arguments))).toEqual([
      { location: 'Boston, MA' },
      { location: 'Tōkyō' },
    ]);
  });

  it('responses.stream(): reasoning summary and text, with the request echoed', async () => {
    const final = await client.responses
      .stream({ model: 'reasoning', instructions: 'Think first.', input: 'Which is bigger, 9.11 or 9.8?' })
      .finalResponse();
    const reasoning = final.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary[0]?.text).toBe(
      'Compare the tenths: 9.8 has 8, 9.11 has 1.',
    );
    expect(final.output_text).toBe('9.8 is greater.');
    expect(final.instructions).toBe('Think first.');
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(98);
  });

  it('a truncated stream ends as incomplete with the reason the SDK expects', async () => {
    const final = await client.responses.stream({ model: 'length', input: 'A long story' }).finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details?.reason).toBe('max_output_tokens');
    expect(final.output_text).toBe('Once upon a time');
  });

  it('responses.parse reads structured output from the translated answer', async () => {
    const response = await client.responses.parse({
      model: 'json',
      input: 'Alice and Bob are going to a science fair on Friday.',
      text: {
        format: {
          type: 'json_schema',
          name: 'calendar_event',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              date: { type: 'string' },
              participants: { type: 'array', items: { type: 'string' } },
            },
            required: ['name', 'date', 'participants'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(response.output_parsed).toEqual(CALENDAR);
  });

  it('a stream that breaks off ends with response.failed, which the SDK surfaces', async () => {
    const stream = await client.responses.create({ model: 'broken', input: 'x', stream: true });
    let failed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.failed') failed = event.response;
    expect(failed?.status).toBe('failed');
    expect(failed?.error?.message).toBe('the upstream stream broke off');
    const final = await client.responses.stream({ model: 'broken', input: 'x' }).finalResponse();
    expect(final.status).toBe('failed');
  });

  it('a refused request is a BadRequestError naming the field; 429 is a RateLimitError', async () => {
    const refused = await client.responses
      .create({ model: 'gpt-4.1', input: 'x', previous_response_id: 'resp_123' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('previous_response_id');
    expect((refused as Error).message).toContain('keeps no stored responses');

    const builtIn = await client.responses
      .create({ model: 'gpt-4.1', input: 'x', tools: [{ type: 'web_search' }] })
      .catch((error: unknown) => error);
    expect((builtIn as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('tools[0].type');

    const limited = await client.responses
      .create({ model: 'rate-limited', input: 'x' })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).type).toBe('rate_limit_error');
  });
});
