import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accumulateChunks, decodeInSlices } from '../../../../test/providers/anthropic/test-support.js';
import {
  context,
  converseStream,
  fixture,
  fixtureJson,
  invokeStream,
} from '../../../../test/providers/bedrock/test-support.js';
import { setThinkingBudget } from '../anthropic/common.js';
import type { AdapterContext, ChatRequest, Json } from '../types.js';
import { bedrockAdapter, parseBedrockError, toBedrockClaudeBody } from './adapter.js';
import { encodeEvent, encodeException } from './eventstream.js';
import { KEY_FORMAT } from './signing.js';

async function build(request: Partial<ChatRequest>, overrides: Partial<AdapterContext> = {}) {
  const call = await bedrockAdapter.buildChat(
    { model: 'client-model', messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatRequest,
    context(overrides),
  );
  return { ...call, json: JSON.parse(String(call.body)) as Json };
}

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('bedrockAdapter.buildChat for Claude (InvokeModel)', () => {
  it('posts the Anthropic body to /model/<encoded id>/invoke, signed over the exact bytes', async () => {
    const call = await build({
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(call.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
    );
    expect(call.json).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 300,
      system: 'Be terse.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(Buffer.isBuffer(call.body)).toBe(true);
    expect(call.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(call.body).digest('hex'));
    expect(call.headers['x-amz-date']).toBe('20231114T221320Z');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.accept).toBe('application/json');
    expect(call.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20231114\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(call.headers.host).toBeUndefined();
  });

  it('streams through /invoke-with-response-stream, with no model or stream field in the body', async () => {
    const call = await build(
      { tools: [weather], tool_choice: 'required', stop: ['END'] },
      { stream: true, upstreamModel: 'claude-3-5-sonnet-20241022' },
    );
    expect(call.url).toMatch(/\/model\/anthropic\.claude-3-5-sonnet-20241022-v2%3A0\/invoke-with-response-stream$/);
    expect(call.json.model).toBeUndefined();
    expect(call.json.stream).toBeUndefined();
    expect(call.json).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      tools: [{ name: 'get_weather', input_schema: weather.function.parameters }],
      tool_choice: { type: 'any' },
      stop_sequences: ['END'],
    });
    expect(call.headers['x-amzn-bedrock-accept']).toBe('application/json');
    expect(call.headers.accept).toBeUndefined();
  });

  it('keeps inference profiles and ARNs, encoding the whole id as one path segment', async () => {
    const profile = await build({}, { upstreamModel: 'global.anthropic.claude-haiku-4-5-20251001-v1:0' });
    expect(profile.url).toMatch(/\/model\/global\.anthropic\.claude-haiku-4-5-20251001-v1%3A0\/invoke$/);
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/claude-team';
    const byArn = await build({}, { upstreamModel: arn });
    expect(byArn.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fclaude-team/invoke',
    );
    expect(byArn.json.anthropic_version).toBe('bedrock-2023-05-31');
  });

  it('turns on thinking for a #thinking model, as the Anthropic translation does', async () => {
    const call = await build({ max_tokens: 1000, temperature: 0.3 }, { upstreamModel: 'claude-sonnet-4-5#thinking' });
    expect(call.url).toContain('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
    // ClaudeBudgetTokensPercentage (0.8) of max_tokens, at least 1024; max_tokens raised above it.
    expect(call.json.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(call.json.max_tokens).toBe(1024 + 4096);
    expect(call.json.temperature).toBeUndefined();
    const exact = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] } as ChatRequest;
    setThinkingBudget(exact, 2000);
    const budgeted = await bedrockAdapter.buildChat(
      exact,
      context({ upstreamModel: 'us.anthropic.claude-opus-4-1-20250805-v1:0' }),
    );
    expect(JSON.parse(String(budgeted.body)).thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    // Claude 3 models cannot think: reasoning_effort is ignored, and their output limit is 4096.
    const old = await build({ reasoning_effort: 'high' }, { upstreamModel: 'anthropic.claude-3-haiku-20240307-v1:0' });
    expect(old.json.thinking).toBeUndefined();
    expect(old.json.max_tokens).toBe(4096);
  });

  it('moves a channel anthropic-beta header into the body and sends other channel headers unsigned', async () => {
    const call = await build(
      {},
      {
        headers: {
          'anthropic-beta': 'context-1m-2025-08-07, interleaved-thinking-2025-05-14',
          'x-team': 'a',
          'Content-Type': 'text/plain',
        },
      },
    );
    expect(call.json.anthropic_beta).toEqual(['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14']);
    expect(call.headers['anthropic-beta']).toBeUndefined();
    expect(call.headers['x-team']).toBe('a');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['Content-Type']).toBeUndefined();
    expect(call.headers.authorization).not.toContain('x-team');
  });

  it('uses a channel base URL instead of the regional endpoint, signing for the host called', async () => {
    const call = await build({}, { baseUrl: 'http://127.0.0.1:4010/proxy' });
    expect(call.url).toBe('http://127.0.0.1:4010/proxy/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
    expect(call.headers.authorization).toContain('SignedHeaders=accept;content-type;host;');
  });

  it('carries a session token, or a Bedrock API key as a bearer token', async () => {
    const session = await build({}, { key: 'eu-west-1|ASIAEXAMPLE|secret|IQoJb3JpZ2luX2Vj' });
    expect(session.url).toContain('https://bedrock-runtime.eu-west-1.amazonaws.com/');
    expect(session.headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2Vj');
    expect(session.headers.authorization).toContain('x-amz-security-token');
    const bearer = await build({}, { key: 'us-west-2|ABSKQmVkcm9ja0FQSUtleS1hYmM=' });
    expect(bearer.url).toContain('https://bedrock-runtime.us-west-2.amazonaws.com/');
    expect(bearer.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer ABSKQmVkcm9ja0FQSUtleS1hYmM=',
    });
  });

  it('refuses a malformed key by naming the expected format', async () => {
    await expect(build({}, { key: 'AKIDEXAMPLE:secret' })).rejects.toThrow(KEY_FORMAT);
    await expect(build({}, { key: 'us-east-1|AK||' })).rejects.toThrow(KEY_FORMAT);
  });

  it('refuses web image URLs (Bedrock takes base64 only) by naming the field, and passes data URLs', async () => {
    await expect(
      build({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'c' },
              { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
            ],
          },
        ],
      }),
    ).rejects.toThrow(/^messages\[2\]\.content\[1\]\.image_url\.url: Bedrock takes images as base64 data URLs only/);
    const call = await build({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } }] },
      ],
    });
    expect((call.json.messages as Json[])[0]).toEqual({
      role: 'user',
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }],
    });
  });

  it('passes client mistakes on with their field path', async () => {
    await expect(build({ messages: [{ role: 'user', content: [{ type: 'video' }] } as never] })).rejects.toThrow(
      /^messages\[0\]\.content\[0\]\.type: /,
    );
  });
});

describe('bedrockAdapter.buildChat for other models (Converse)', () => {
  it('posts the Converse body to /converse or /converse-stream', async () => {
    const call = await build(
      {
        max_tokens: 64,
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'Hi' },
        ],
      },
      { upstreamModel: 'amazon.nova-lite-v1:0' },
    );
    expect(call.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse');
    expect(call.json).toEqual({
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      system: [{ text: 'S' }],
      inferenceConfig: { maxTokens: 64 },
    });
    expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    const streamed = await build({}, { upstreamModel: 'meta.llama3-1-70b-instruct-v1:0', stream: true });
    expect(streamed.url).toMatch(/\/model\/meta\.llama3-1-70b-instruct-v1%3A0\/converse-stream$/);
    expect(streamed.json.stream).toBeUndefined();
  });
});

describe('bedrockAdapter.parseChat', () => {
  it('reads a Claude InvokeModel answer as Anthropic JSON', () => {
    const completion = bedrockAdapter.parseChat(fixture('invoke-answer-text.json'), context());
    expect(completion).toEqual({
      id: 'chatcmpl-bedrock1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-5-20250929',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello! How can I help you today?' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 10,
        total_tokens: 22,
        prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
      },
    });
  });

  it('reads Claude tool use and cache usage', () => {
    const completion = bedrockAdapter.parseChat(fixture('invoke-answer-tool-use.json'), context());
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'toolu_bdrk_01A09q90qw90lq917835lq9',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
      },
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 380 + 1200 + 2400,
      completion_tokens: 71,
      prompt_tokens_details: { cached_tokens: 2400, cached_write_tokens: 1200, cached_read_tokens: 2400 },
    });
  });

  it('reads a Converse answer for other models', () => {
    const completion = bedrockAdapter.parseChat(
      fixture('converse-answer-text.json'),
      context({ upstreamModel: 'amazon.nova-pro-v1:0' }),
    );
    expect(completion.choices[0]?.message.content).toBe('Paris has light rain and 18°C right now.');
    expect(completion.model).toBe('amazon.nova-pro-v1:0');
  });

  it('names a malformed body', () => {
    expect(() => bedrockAdapter.parseChat(Buffer.from('<html>'), context())).toThrow(
      "the upstream's answer is not JSON",
    );
    expect(() => bedrockAdapter.parseChat(Buffer.from('[]'), context())).toThrow('not a JSON object');
    expect(() => bedrockAdapter.parseChat(Buffer.from('{"type":"message"}'), context())).toThrow('no content list');
    expect(() =>
      bedrockAdapter.parseChat(Buffer.from('{}'), context({ upstreamModel: 'amazon.nova-pro-v1:0' })),
    ).toThrow('no output.message.content');
  });
});

describe('bedrockAdapter.decodeStream for Claude', () => {
  const ctx = context({ stream: true });

  it('unwraps base64 Anthropic events from chunk messages cut at every byte', () => {
    const bytes = invokeStream(fixtureJson<Json[]>('invoke-stream-text.json'));
    for (const size of [1, 2, 13, 200, bytes.length]) {
      const chunks = decodeInSlices(bedrockAdapter.decodeStream(ctx), bytes, size);
      const answer = accumulateChunks(chunks);
      expect(answer).toMatchObject({ role: 'assistant', content: 'Héllo wörld 👋, how can I help?', finish: 'stop' });
      expect(answer.usage).toEqual({
        prompt_tokens: 14,
        completion_tokens: 12,
        total_tokens: 26,
        prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
      });
      expect(chunks[0]?.model).toBe('claude-sonnet-4-5-20250929');
    }
  });

  it('streams thinking and parallel tool calls with split arguments', () => {
    const bytes = invokeStream(fixtureJson<Json[]>('invoke-stream-thinking-tools.json'));
    const answer = accumulateChunks(decodeInSlices(bedrockAdapter.decodeStream(ctx), bytes, 7));
    expect(answer.reasoning).toBe('The user wants weather for two cities; I will call the tool twice.');
    expect(answer.toolCalls).toEqual([
      { id: 'toolu_bdrk_01Paris', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'toolu_bdrk_01Tokyo', name: 'get_weather', arguments: '{"city": "Tokyo"}' },
    ]);
    expect(answer.finish).toBe('tool_calls');
    expect(answer.usage).toMatchObject({
      prompt_tokens: 1910,
      completion_tokens: 96,
      prompt_tokens_details: { cached_tokens: 1500 },
    });
  });

  it('throws an exception message (throttling, model stream error) with its text', () => {
    const events = fixtureJson<Json[]>('invoke-stream-text.json');
    const decoder = bedrockAdapter.decodeStream(ctx);
    expect(accumulateChunks(decoder.push(invokeStream(events.slice(0, 3)))).content).toBe('Héllo');
    expect(() =>
      decoder.push(Buffer.from(encodeException('modelStreamErrorException', 'The model stream failed mid-answer.'))),
    ).toThrow('modelStreamErrorException: The model stream failed mid-answer.');
    expect(() =>
      bedrockAdapter
        .decodeStream(ctx)
        .push(Buffer.from(encodeException('throttlingException', 'Too many tokens, please wait before trying again.'))),
    ).toThrow('throttlingException: Too many tokens, please wait before trying again.');
  });

  it('fails a stream cut before the end, and a chunk that is not an Anthropic event', () => {
    const events = fixtureJson<Json[]>('invoke-stream-text.json');
    const decoder = bedrockAdapter.decodeStream(ctx);
    decoder.push(invokeStream(events.slice(0, 4)));
    expect(() => decoder.end()).toThrow('the upstream stream ended before the message was complete');
    const whole = invokeStream(events);
    const cut = bedrockAdapter.decodeStream(ctx);
    cut.push(whole.subarray(0, whole.length - 1));
    expect(() => cut.end()).toThrow(/ended in the middle of a message/);
    expect(() =>
      bedrockAdapter
        .decodeStream(ctx)
        .push(Buffer.from(encodeEvent('chunk', { bytes: Buffer.from('nope').toString('base64') }))),
    ).toThrow("the upstream's chunk is not an Anthropic event: nope");
    expect(() => bedrockAdapter.decodeStream(ctx).push(Buffer.from(encodeEvent('chunk', { other: 1 })))).toThrow(
      "the upstream's chunk event has no bytes",
    );
  });

  it('decodes Converse streams for other models', () => {
    const entries = fixtureJson<Array<{ event: string; payload: Json }>>('converse-stream-text.json');
    const answer = accumulateChunks(
      decodeInSlices(
        bedrockAdapter.decodeStream(context({ stream: true, upstreamModel: 'amazon.nova-pro-v1:0' })),
        converseStream(entries),
        3,
      ),
    );
    expect(answer.content).toBe('Paris: 18°C, légère pluie ☔');
  });
});

describe('parseBedrockError', () => {
  const read = (status: number, name: string) => parseBedrockError(status, fixture(name));

  it('reads the message and names the exception by status', () => {
    expect(read(400, 'error-400-validation.json')).toEqual({
      status: 400,
      message: expect.stringContaining("'inferenceConfig.maxTokens' failed to satisfy constraint"),
      type: 'invalid_request_error',
      code: 'ValidationException',
    });
    expect(read(403, 'error-403-access-denied.json')).toEqual({
      status: 403,
      message: "You don't have access to the model with the specified model ID.",
      type: 'permission_error',
      code: 'AccessDeniedException',
    });
    expect(read(404, 'error-404-model.json')).toMatchObject({
      type: 'not_found_error',
      code: 'ResourceNotFoundException',
    });
    expect(read(429, 'error-429-throttling.json')).toEqual({
      status: 429,
      message: 'Too many requests, please wait before trying again.',
      type: 'rate_limit_error',
      code: 'ThrottlingException',
    });
    expect(read(500, 'error-500-internal.json')).toMatchObject({ type: 'api_error', code: 'InternalServerException' });
    expect(read(503, 'error-503-unavailable.json')).toEqual({
      status: 503,
      message: 'Bedrock is unable to process your request.',
      type: 'overloaded_error',
      code: 'ServiceUnavailableException',
    });
  });

  it('keeps "Operation not allowed" verbatim, for the relay looks for it', () => {
    expect(read(403, 'error-403-operation-not-allowed.json')).toMatchObject({ message: 'Operation not allowed' });
    expect(read(400, 'error-403-operation-not-allowed.json').message).toBe('Operation not allowed');
  });

  it('reads bad signatures and unknown keys as authentication errors', () => {
    expect(read(403, 'error-403-signature.json')).toMatchObject({
      type: 'authentication_error',
      message: expect.stringContaining('The request signature we calculated does not match'),
    });
    expect(read(403, 'error-403-unrecognized-client.json')).toMatchObject({ type: 'authentication_error' });
    expect(parseBedrockError(401, Buffer.from('{"message":"x"}')).type).toBe('authentication_error');
  });

  it('prefers an exception name in the body, and survives bodies that are not JSON', () => {
    expect(
      parseBedrockError(
        400,
        Buffer.from('{"__type":"com.amazon.coral.service#ServiceQuotaExceededException","message":"quota"}'),
      ),
    ).toMatchObject({ code: 'ServiceQuotaExceededException', message: 'quota' });
    expect(parseBedrockError(502, fixture('error-502-html.txt'))).toMatchObject({
      status: 502,
      message: expect.stringContaining('502 Bad Gateway'),
      type: 'api_error',
    });
    expect(parseBedrockError(500, Buffer.alloc(0))).toMatchObject({ message: 'HTTP 500' });
    expect(parseBedrockError(400, Buffer.from('{"error":{"message":"from a proxy"}}')).message).toBe('from a proxy');
  });
});

describe('toBedrockClaudeBody', () => {
  it('drops model and stream, sets the Bedrock version and merges betas', () => {
    expect(
      toBedrockClaudeBody(
        {
          model: 'claude-x',
          stream: true,
          anthropic_version: '2023-06-01',
          anthropic_beta: ['a'],
          max_tokens: 5,
          messages: [],
        },
        'b, a',
      ),
    ).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 5, messages: [], anthropic_beta: ['a', 'b'] });
    expect(toBedrockClaudeBody({ model: 'x', max_tokens: 1, messages: [] })).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 1,
      messages: [],
    });
  });
});

describe("bedrockAdapter and the channel's parameters", () => {
  it('merges them before signing, so the signature covers them, and seals the call', async () => {
    const call = await build({ max_tokens: 300 }, { parameters: { top_k: 7, max_tokens: 50, overwrite: false } });
    expect(call.json).toMatchObject({ top_k: 7, max_tokens: 300 });
    expect(call.json).not.toHaveProperty('overwrite');
    expect(call.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(call.body).digest('hex'));
    expect(call.sealed).toBe(true);
  });
});
