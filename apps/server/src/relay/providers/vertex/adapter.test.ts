import { beforeAll, describe, expect, it } from 'vitest';
import {
  context,
  decodeInSlices,
  fixture,
  fixtureJson,
  gather,
  serviceAccountKey,
  type TestKeyPair,
  testKeyPair,
  verifyJwt,
} from '../../../../test/providers/vertex/test-support.js';
import type { AdapterContext, ChatRequest, Json, UpstreamCall } from '../types.js';
import {
  claudeVertexModel,
  createVertexAdapter,
  type parseVertexError,
  type VertexAdapter,
  vertexFormatOf,
  vertexModelUrl,
  vertexTarget,
} from './adapter.js';
import { parseServiceAccount, ServiceAccountTokens, type TokenPost } from './token.js';

let keys: TestKeyPair;
let key: string;

beforeAll(() => {
  keys = testKeyPair();
  key = serviceAccountKey(keys.privateKey);
});

const PROJECT = 'onehub-test-project';

/** An adapter whose token endpoint is a recorder answering `ya29.test-<n>`. */
function setup(): { adapter: VertexAdapter; posts: Array<{ url: string; form: Record<string, string> }> } {
  const posts: Array<{ url: string; form: Record<string, string> }> = [];
  const post: TokenPost = async (url, form) => {
    posts.push({ url, form });
    return { status: 200, body: JSON.stringify({ access_token: `ya29.test-${posts.length}`, expires_in: 3599 }) };
  };
  return { adapter: createVertexAdapter(new ServiceAccountTokens(post, () => 1_750_000_000_000)), posts };
}

const chat = (): ChatRequest => fixtureJson('request-chat-tools.json') as unknown as ChatRequest;
const bodyOf = (call: UpstreamCall): Json => JSON.parse(String(call.body)) as Json;
const vertexContext = (overrides: Partial<AdapterContext> = {}) => context(key, overrides);

describe('where calls go', () => {
  const account = () => parseServiceAccount(key);

  it("defaults to us-central1 and the key file's project", () => {
    const target = vertexTarget({ other: '', baseUrl: '' }, account());
    expect(target).toEqual({
      root: 'https://us-central1-aiplatform.googleapis.com/v1',
      region: 'us-central1',
      project: PROJECT,
    });
    expect(vertexModelUrl(target, 'google', 'gemini-2.5-flash', 'generateContent')).toBe(
      `https://us-central1-aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`,
    );
  });

  it('takes Region|ProjectID from other, either part optional', () => {
    expect(vertexTarget({ other: 'europe-west4|my-other-project', baseUrl: '' }, account())).toEqual({
      root: 'https://europe-west4-aiplatform.googleapis.com/v1',
      region: 'europe-west4',
      project: 'my-other-project',
    });
    expect(vertexTarget({ other: ' us-east5 ', baseUrl: '' }, account())).toMatchObject({
      region: 'us-east5',
      project: PROJECT,
    });
    expect(vertexTarget({ other: '|p-2', baseUrl: '' }, account())).toMatchObject({
      region: 'us-central1',
      project: 'p-2',
    });
  });

  it('sends the global region to aiplatform.googleapis.com, without a region prefix', () => {
    const target = vertexTarget({ other: 'global', baseUrl: '' }, account());
    expect(vertexModelUrl(target, 'anthropic', 'claude-sonnet-4-5@20250929', 'rawPredict')).toBe(
      `https://aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`,
    );
  });

  it("lets the channel's base URL replace the host, with or without its version", () => {
    expect(vertexTarget({ other: 'us-east5', baseUrl: 'http://127.0.0.1:8080/' }, account()).root).toBe(
      'http://127.0.0.1:8080/v1',
    );
    expect(vertexTarget({ other: 'us-east5', baseUrl: 'https://proxy.example/vertex/v1beta1' }, account()).root).toBe(
      'https://proxy.example/vertex/v1beta1',
    );
  });

  it('refuses a region or project that could not be one, and a project found nowhere', () => {
    expect(() => vertexTarget({ other: 'us-central1/../../x', baseUrl: '' }, account())).toThrow(
      /^other: "us-central1\/..\/..\/x" is not a Vertex AI location/,
    );
    expect(() => vertexTarget({ other: 'us-central1|a/b', baseUrl: '' }, account())).toThrow(
      /^other: "a\/b" is not a project id/,
    );
    const noProject = parseServiceAccount(serviceAccountKey(keys.privateKey, { project_id: undefined }));
    expect(() => vertexTarget({ other: 'us-central1', baseUrl: '' }, noProject)).toThrow(/^other: no project id/);
  });
});

describe('Claude model ids on Vertex', () => {
  it("maps Anthropic's names to the ids of Google's model table", () => {
    const table: Array<[string, string]> = [
      ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
      ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet-v2@20241022'],
      ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet@20240620'],
      ['claude-3-5-haiku-20241022', 'claude-3-5-haiku@20241022'],
      ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet@20250219'],
      ['claude-3-opus-20240229', 'claude-3-opus@20240229'],
      ['claude-3-haiku-20240307', 'claude-3-haiku@20240307'],
      ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
      ['claude-opus-4-20250514', 'claude-opus-4@20250514'],
      ['claude-opus-4-1-20250805', 'claude-opus-4-1@20250805'],
      ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5@20250929'],
      ['claude-haiku-4-5-20251001', 'claude-haiku-4-5@20251001'],
      ['claude-opus-4-5-20251101', 'claude-opus-4-5@20251101'],
      ['claude-sonnet-4-5', 'claude-sonnet-4-5@20250929'],
      ['claude-sonnet-4-0', 'claude-sonnet-4@20250514'],
      // Already Vertex ids, or published without a date: as they are.
      ['claude-3-5-sonnet-v2@20241022', 'claude-3-5-sonnet-v2@20241022'],
      ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5@20250929'],
      ['claude-opus-4-6', 'claude-opus-4-6'],
    ];
    for (const [name, id] of table) expect(claudeVertexModel(name), name).toBe(id);
  });

  it('tells the two model families apart, suffixes and prefixes aside', () => {
    expect(vertexFormatOf('claude-sonnet-4-5#thinking')).toBe('anthropic');
    expect(vertexFormatOf('claude-3-5-sonnet-v2@20241022')).toBe('anthropic');
    expect(vertexFormatOf('gemini-2.5-pro#thinking')).toBe('gemini');
    expect(vertexFormatOf('models/gemini-2.0-flash')).toBe('gemini');
  });
});

describe('building Gemini calls', () => {
  it('posts the Gemini translation to generateContent with a bearer token from the service account', async () => {
    const { adapter, posts } = setup();
    const call = await adapter.buildChat(
      chat(),
      vertexContext({
        upstreamModel: 'gemini-2.5-flash',
        other: 'europe-west1|proj-eu',
        headers: { 'x-goog-user-project': 'billing-proj', Authorization: 'Bearer channel-header-must-not-win' },
      }),
    );
    expect(call.url).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/proj-eu/locations/europe-west1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(call.headers).toEqual({
      'content-type': 'application/json',
      'x-goog-user-project': 'billing-proj',
      authorization: 'Bearer ya29.test-1',
    });
    expect(bodyOf(call)).toEqual(fixtureJson('gemini-request-body.json'));
    expect(posts).toHaveLength(1);
    expect(posts[0]?.url).toBe('https://oauth2.googleapis.com/token');
    expect(verifyJwt(posts[0]?.form.assertion ?? '', keys.publicKey).claims.iss).toBe(
      'relay@onehub-test-project.iam.gserviceaccount.com',
    );
  });

  it('streams through streamGenerateContent?alt=sse, reusing the cached token', async () => {
    const { adapter, posts } = setup();
    await adapter.buildChat(chat(), vertexContext());
    const call = await adapter.buildChat(chat(), vertexContext({ stream: true, other: 'global' }));
    expect(call.url).toBe(
      `https://aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    );
    expect(call.headers.authorization).toBe('Bearer ya29.test-1');
    expect(posts).toHaveLength(1);
  });

  it('carries images (https and base64), thinking, and the Gemini 3 thought-signature placeholder', async () => {
    const { adapter } = setup();
    const request: ChatRequest = {
      model: 'x',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ],
      tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object', properties: {} } } }],
    };
    const body = bodyOf(
      await adapter.buildChat(request, vertexContext({ upstreamModel: 'gemini-3-pro-preview#thinking' })),
    );
    const contents = body.contents as Array<{ role: string; parts: Json[] }>;
    expect(contents[0]?.parts).toEqual([
      { text: 'Compare these.' },
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.png' } },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
    ]);
    expect(contents[1]?.parts[0]).toEqual({
      functionCall: { name: 'look', args: {} },
      thoughtSignature: 'skip_thought_signature_validator',
    });
    expect(body.generationConfig).toMatchObject({ thinkingConfig: { thinkingBudget: -1, includeThoughts: true } });
  });
});

describe('building Claude calls', () => {
  it('posts the Anthropic body to rawPredict: no model, the Vertex anthropic_version', async () => {
    const { adapter } = setup();
    const call = await adapter.buildChat(
      chat(),
      vertexContext({ upstreamModel: 'claude-sonnet-4-5-20250929', other: 'us-east5' }),
    );
    expect(call.url).toBe(
      `https://us-east5-aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`,
    );
    expect(call.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ya29.test-1' });
    const body = bodyOf(call);
    expect(body).toEqual(fixtureJson('claude-request-body.json'));
    expect(body).not.toHaveProperty('model');
    expect(call.headers).not.toHaveProperty('x-api-key');
    expect(call.headers).not.toHaveProperty('anthropic-version');
  });

  it('streams through streamRawPredict with stream: true, and maps the 3.5 Sonnet v2 name', async () => {
    const { adapter } = setup();
    const call = await adapter.buildChat(
      chat(),
      vertexContext({ upstreamModel: 'claude-3-5-sonnet-20241022', stream: true }),
    );
    expect(call.url).toMatch(/\/publishers\/anthropic\/models\/claude-3-5-sonnet-v2@20241022:streamRawPredict$/);
    const body = bodyOf(call);
    expect(body.stream).toBe(true);
    expect(body.anthropic_version).toBe('vertex-2023-10-16');
  });

  it('turns on thinking for a #thinking model, and sends images as Anthropic blocks', async () => {
    const { adapter } = setup();
    const request: ChatRequest = {
      model: 'x',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/dog.jpg' } },
            { type: 'text', text: 'Which is cuter?' },
          ],
        },
      ],
    };
    const call = await adapter.buildChat(
      request,
      vertexContext({ upstreamModel: 'claude-sonnet-4-5-20250929#thinking' }),
    );
    expect(call.url).toMatch(/models\/claude-sonnet-4-5@20250929:rawPredict$/);
    const body = bodyOf(call);
    // ClaudeBudgetTokensPercentage (0.8) of the default max_tokens (8192).
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 6553 });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/dog.jpg' } },
          { type: 'text', text: 'Which is cuter?' },
        ],
      },
    ]);
  });
});

describe('building calls that cannot be made', () => {
  it("fails on the client's bad field before asking for a token", async () => {
    const { adapter, posts } = setup();
    const bad = {
      model: 'x',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] }],
    };
    await expect(
      adapter.buildChat(bad as ChatRequest, vertexContext({ upstreamModel: 'claude-sonnet-4-5' })),
    ).rejects.toThrow(/^messages\[0\]\.content\[0\]\.image_url\.url:/);
    await expect(adapter.buildChat({ model: 'x', messages: [] }, vertexContext())).rejects.toThrow(/^messages:/);
    expect(posts).toHaveLength(0);
  });

  it('names a bad channel key or a failed token exchange', async () => {
    const { adapter } = setup();
    await expect(adapter.buildChat(chat(), context('not json'))).rejects.toThrow(/channel key is not valid JSON/);
    const refusing = createVertexAdapter(
      new ServiceAccountTokens(
        async () => ({ status: 400, body: fixture('token-error-invalid-grant.json').toString() }),
        Date.now,
      ),
    );
    await expect(refusing.buildChat(chat(), vertexContext())).rejects.toThrow(
      'the service-account token endpoint answered 400: invalid_grant: Invalid JWT Signature.',
    );
  });
});

describe('reading Gemini answers', () => {
  const { adapter } = setup();

  it('reads text, thoughts and Vertex usage (cached and thinking tokens)', () => {
    const completion = adapter.parseChat(fixture('gemini-response-text.json'), vertexContext());
    expect(completion).toMatchObject({ id: 'chatcmpl-vertex1', object: 'chat.completion', model: 'gemini-2.5-flash' });
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Paris is the capital of France.',
          reasoning_content: 'Thinking about a short answer.',
        },
        finish_reason: 'stop',
      },
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 31,
      total_tokens: 43,
      prompt_tokens_details: { cached_tokens: 4, text_tokens: 12 },
      completion_tokens_details: { reasoning_tokens: 24, text_tokens: 7 },
    });
  });

  it('reads parallel function calls as tool calls, and maps every finish reason', () => {
    const completion = adapter.parseChat(fixture('gemini-response-parallel-function-calls.json'), vertexContext());
    const message = completion.choices[0]?.message;
    expect(message?.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
    ]);
    expect(new Set(message?.tool_calls?.map((call) => call.id)).size).toBe(2);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject({ prompt_tokens: 58, completion_tokens: 14 });
    const finishes: Array<[string, string]> = [
      ['STOP', 'stop'],
      ['MAX_TOKENS', 'length'],
      ['SAFETY', 'content_filter'],
      ['RECITATION', 'content_filter'],
      ['PROHIBITED_CONTENT', 'content_filter'],
      ['OTHER', 'stop'],
    ];
    const base = fixtureJson('gemini-response-max-tokens.json');
    for (const [reason, finish] of finishes) {
      const candidates = [{ ...(base.candidates as Json[])[0], finishReason: reason }];
      const body = Buffer.from(JSON.stringify({ ...base, candidates }));
      expect(adapter.parseChat(body, vertexContext()).choices[0]?.finish_reason, reason).toBe(finish);
    }
  });

  it('throws an Error naming a malformed answer', () => {
    expect(() => adapter.parseChat(Buffer.from('<html>'), vertexContext())).toThrow(/not JSON/);
    expect(() => adapter.parseChat(Buffer.from('{"candidates": []}'), vertexContext())).toThrow(/no candidates/);
  });
});

describe('reading Claude answers', () => {
  const { adapter } = setup();
  const claude = (overrides: Partial<AdapterContext> = {}) =>
    vertexContext({ upstreamModel: 'claude-sonnet-4-5-20250929', ...overrides });

  it('reads thinking, text and usage with cache reads and writes', () => {
    const completion = adapter.parseChat(fixture('claude-message-text.json'), claude());
    expect(completion.model).toBe('claude-sonnet-4-5-20250929');
    expect(completion.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Hello! How can I help you today?',
          reasoning_content: 'The user greets me; answer warmly.',
        },
        finish_reason: 'stop',
      },
    ]);
    expect(completion.usage).toEqual({
      prompt_tokens: 14 + 2048 + 1024,
      completion_tokens: 31,
      total_tokens: 14 + 2048 + 1024 + 31,
      prompt_tokens_details: { cached_tokens: 1024, cached_write_tokens: 2048, cached_read_tokens: 1024 },
    });
  });

  it('reads parallel tool use, and maps every stop reason', () => {
    const completion = adapter.parseChat(fixture('claude-message-parallel-tool-use.json'), claude());
    expect(completion.choices[0]?.message).toEqual({
      role: 'assistant',
      content: "I'll check both cities.",
      tool_calls: [
        { id: 'toolu_vrtx_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_vrtx_01B', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
      ],
    });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    const base = fixtureJson('claude-message-stop-sequence.json');
    const reasons: Array<[string, string]> = [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['max_tokens', 'length'],
      ['tool_use', 'tool_calls'],
      ['refusal', 'content_filter'],
      ['pause_turn', 'stop'],
    ];
    for (const [reason, finish] of reasons) {
      const body = Buffer.from(JSON.stringify({ ...base, stop_reason: reason }));
      expect(adapter.parseChat(body, claude()).choices[0]?.finish_reason, reason).toBe(finish);
    }
  });

  it('throws an Error naming a malformed answer', () => {
    expect(() => adapter.parseChat(Buffer.from('{"id": "msg_vrtx_1"'), claude())).toThrow(/not JSON/);
    expect(() => adapter.parseChat(Buffer.from('{"id": "msg_vrtx_1"}'), claude())).toThrow(/no content list/);
  });
});

describe('decoding Gemini streams', () => {
  const { adapter } = setup();

  it('yields the same text and usage whatever the byte boundaries, inside UTF-8 characters too', () => {
    const bytes = fixture('gemini-stream-text.sse');
    for (const size of [1, 3, 7, bytes.length]) {
      const chunks = decodeInSlices(adapter.decodeStream(vertexContext({ stream: true })), bytes, size);
      const result = gather(chunks);
      expect(result.content, `slices of ${size}`).toBe('Bonjour à tous — ça va ? 🇫🇷');
      expect(result.finish).toEqual(['stop']);
      expect(chunks.at(-1)?.usage).toEqual({
        prompt_tokens: 9,
        completion_tokens: 23,
        total_tokens: 32,
        prompt_tokens_details: { text_tokens: 9 },
        completion_tokens_details: { reasoning_tokens: 12, text_tokens: 11 },
      });
      expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    }
  });

  it('yields a streamed function call with its arguments and the tool_calls finish', () => {
    const chunks = decodeInSlices(
      adapter.decodeStream(vertexContext({ stream: true })),
      fixture('gemini-stream-function-call.sse'),
      5,
    );
    const result = gather(chunks);
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]?.name).toBe('get_weather');
    expect(JSON.parse(result.calls[0]?.arguments ?? '')).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(result.finish).toEqual(['tool_calls']);
  });

  it('throws when the stream is cut inside an event', () => {
    const bytes = fixture('gemini-stream-text.sse');
    const decoder = adapter.decodeStream(vertexContext({ stream: true }));
    decoder.push(bytes.subarray(0, bytes.length - 40));
    expect(() => decoder.end()).toThrow(/ended inside an event/);
  });
});

describe('decoding Claude streams', () => {
  const { adapter } = setup();
  const claude = () => vertexContext({ upstreamModel: 'claude-sonnet-4-5-20250929', stream: true });

  it('yields text, finish and usage whatever the byte boundaries, inside UTF-8 characters too', () => {
    const bytes = fixture('claude-stream-text.sse');
    for (const size of [1, 2, 5, bytes.length]) {
      const chunks = decodeInSlices(adapter.decodeStream(claude()), bytes, size);
      const result = gather(chunks);
      expect(result.content, `slices of ${size}`).toBe("Grüß Gott — wie geht's? 👋");
      expect(result.finish).toEqual(['length']);
      expect(chunks.at(-1)?.usage).toEqual({
        prompt_tokens: 19 + 512,
        completion_tokens: 12,
        total_tokens: 19 + 512 + 12,
        prompt_tokens_details: { cached_tokens: 512, cached_write_tokens: 0, cached_read_tokens: 512 },
      });
    }
  });

  it('forwards tool-call arguments split across events as deltas', () => {
    const chunks = decodeInSlices(adapter.decodeStream(claude()), fixture('claude-stream-tool-use.sse'), 9);
    const argumentDeltas = chunks.flatMap((chunk) =>
      chunk.choices.flatMap((choice) => (choice.delta.tool_calls ?? []).map((call) => call.function.arguments)),
    );
    expect(argumentDeltas).toEqual(['', '{"city": "Pa', 'ris"}']);
    const result = gather(chunks);
    expect(result.calls).toEqual([{ id: 'toolu_vrtx_01T', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(result.finish).toEqual(['tool_calls']);
  });

  it('throws on an error event, and on a stream cut before the message ended', () => {
    const failing = adapter.decodeStream(claude());
    expect(() => decodeInSlices(failing, fixture('claude-stream-error-overloaded.sse'), 16)).toThrow(
      'overloaded_error: Overloaded',
    );
    const bytes = fixture('claude-stream-text.sse');
    const cut = adapter.decodeStream(claude());
    const early = cut.push(bytes.subarray(0, bytes.indexOf('event: message_delta')));
    expect(gather(early).content).toBe("Grüß Gott — wie geht's? 👋");
    expect(() => cut.end()).toThrow(/ended before the message was complete/);
  });
});

describe('reading errors', () => {
  const { adapter } = setup();

  it("reads Google's error shape (the platform's answers, for both families) and Anthropic's (Claude's own)", () => {
    const cases: Array<[string, number, Partial<ReturnType<typeof parseVertexError>>]> = [
      ['error-401-unauthenticated.json', 401, { type: 'authentication_error', code: 'UNAUTHENTICATED' }],
      ['error-403-permission-denied.json', 403, { type: 'authentication_error', code: 'PERMISSION_DENIED' }],
      ['error-404-model-not-found.json', 404, { type: 'invalid_request_error', code: 'NOT_FOUND' }],
      ['error-429-resource-exhausted.json', 429, { type: 'rate_limit_error', code: 'RESOURCE_EXHAUSTED' }],
      [
        'error-500-internal.json',
        500,
        { type: 'server_error', code: 'INTERNAL', message: 'Internal error encountered.' },
      ],
      ['error-503-unavailable.json', 503, { type: 'server_error', code: 'UNAVAILABLE' }],
      ['error-529-claude-overloaded.json', 529, { type: 'overloaded_error', message: 'Overloaded' }],
      ['error-400-claude-invalid-request.json', 400, { type: 'invalid_request_error' }],
      ['error-502-html.txt', 502, { message: expect.stringContaining('502 Bad Gateway') as unknown as string }],
    ];
    for (const [name, status, expected] of cases) {
      const info = adapter.parseError(status, fixture(name));
      expect(info, name).toMatchObject({ status, ...expected });
      expect(info.message.length, name).toBeGreaterThan(0);
    }
    expect(adapter.parseError(429, fixture('error-429-resource-exhausted.json')).message).toMatch(/^Quota exceeded/);
    expect(adapter.parseError(400, fixture('error-400-claude-invalid-request.json')).message).toMatch(
      /^messages\.1\.content\.0\.tool_result/,
    );
    expect(adapter.parseError(500, Buffer.alloc(0))).toMatchObject({ status: 500, message: 'HTTP 500' });
  });
});

describe('native pass-through calls', () => {
  it('wraps an Anthropic Messages body unchanged but for model and anthropic_version', async () => {
    const { adapter } = setup();
    const body = {
      model: 'claude-sonnet-4-5',
      anthropic_version: '2023-06-01',
      max_tokens: 300,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      metadata: { user_id: 'u-1' },
    };
    const streamed = await adapter.vertexNativeCall(
      'anthropic',
      body,
      vertexContext({ upstreamModel: 'claude-sonnet-4-5', stream: true, other: 'global' }),
    );
    expect(streamed.url).toBe(
      `https://aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict`,
    );
    const { model: _model, anthropic_version: _version, ...rest } = body;
    expect(bodyOf(streamed)).toEqual({ anthropic_version: 'vertex-2023-10-16', ...rest });
    expect(streamed.headers.authorization).toBe('Bearer ya29.test-1');
    const whole = await adapter.vertexNativeCall(
      'anthropic',
      body,
      vertexContext({ upstreamModel: 'claude-sonnet-4-5' }),
    );
    expect(whole.url).toMatch(/:rawPredict$/);
    expect(bodyOf(whole)).not.toHaveProperty('stream');
  });

  it('wraps a Gemini body unchanged', async () => {
    const { adapter } = setup();
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
      cachedContent: 'projects/p/locations/us-central1/cachedContents/123',
    };
    const call = await adapter.vertexNativeCall(
      'gemini',
      body,
      vertexContext({ upstreamModel: 'gemini-2.5-flash', stream: true }),
    );
    expect(call.url).toBe(
      `https://us-central1-aiplatform.googleapis.com/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
    );
    expect(bodyOf(call)).toEqual(body);
  });

  it("refuses a body of the other family's format", async () => {
    const { adapter, posts } = setup();
    await expect(
      adapter.vertexNativeCall('gemini', { contents: [] }, vertexContext({ upstreamModel: 'claude-sonnet-4-5' })),
    ).rejects.toThrow(/^model: claude-sonnet-4-5 on Vertex AI takes Anthropic requests/);
    await expect(
      adapter.vertexNativeCall('anthropic', { messages: [] }, vertexContext({ upstreamModel: 'gemini-2.5-flash' })),
    ).rejects.toThrow(/^model: gemini-2.5-flash on Vertex AI takes Gemini requests/);
    expect(posts).toHaveLength(0);
  });
});
