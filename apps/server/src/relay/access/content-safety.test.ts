import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE, GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import { storedQuota } from '../../../test/relay-setup.js';
import { matchingForm, requestTexts } from './content-safety.js';

describe('the texts content safety reads', () => {
  it('finds the text of every surface and leaves media and metadata out', () => {
    const texts = requestTexts({
      model: 'forbidden-model-name',
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          name: 'alice',
          content: [
            { type: 'text', text: 'chat part' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
      system: [{ type: 'text', text: 'claude system' }],
      contents: [
        { role: 'user', parts: [{ text: 'gemini part' }, { inlineData: { data: 'BBBB', mimeType: 'image/png' } }] },
      ],
      systemInstruction: { parts: [{ text: 'gemini system' }] },
      input: ['embedding one', 'embedding two'],
      instructions: 'responses instructions',
      prompt: 'image prompt',
      query: 'rerank query',
      documents: ['rerank doc'],
      metadata: { user: 'someone' },
    });
    expect(texts.sort()).toEqual(
      [
        'alice',
        'be brief',
        'chat part',
        'claude system',
        'gemini part',
        'gemini system',
        'embedding one',
        'embedding two',
        'responses instructions',
        'image prompt',
        'rerank query',
        'rerank doc',
      ].sort(),
    );
  });

  it('reads names, tool descriptions and schemas, and tool-call arguments of every surface', () => {
    const texts = requestTexts({
      messages: [
        {
          role: 'assistant',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"\\u0073ecret openai arg"}' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_use', id: 't1', name: 'claude_tool', input: { city: 'claude arg' } }] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            description: 'openai tool description',
            parameters: { type: 'object', properties: { q: { type: 'string', description: 'param description' } } },
          },
        },
        { name: 'claude_tool', description: 'claude tool description', input_schema: { type: 'object' } },
      ],
      contents: [
        {
          parts: [
            { functionCall: { name: 'gemini_call', args: { where: 'gemini arg', image_url: 'hidden in args' } } },
            { functionResponse: { name: 'gemini_call', response: { result: 'gemini result' } } },
          ],
        },
      ],
    });
    for (const text of [
      'secret openai arg',
      'claude arg',
      'openai tool description',
      'param description',
      'claude tool description',
      'gemini arg',
      'hidden in args',
      'gemini result',
      'claude_tool',
      'gemini_call',
    ]) {
      expect(texts, text).toContain(text);
    }
  });

  it('compares full-width letters as plain ones and ignores invisible characters', () => {
    expect(matchingForm('ＳＥＣＲＥＴ　ＰＬＡＮ')).toBe('secret plan');
    expect(matchingForm('se\u200Bcr\u200Cet\u200D p\u2060l\uFEFFa\u00ADn')).toBe('secret plan');
    expect(matchingForm('Plain ASCII')).toBe('plain ascii');
  });
});

/**
 * EnableSafe with the Keyword tool, through the official SDKs of each surface: a request whose
 * text holds a listed word (in any case) is refused with 400 content_security_policy_blocking before
 * any quota is held or any upstream called, and leaves an error log row that does not quote it.
 */
describe('content safety through the relay', () => {
  let relay: NativeRelay;
  let openai: OpenAI;

  const setOption = async (key: string, value: string) => {
    const answer = await relay.r.admin('PUT', '/api/option/', { key, value });
    expect(answer.status).toBe(200);
  };

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1, output: 1 }, gemini: { input: 1, output: 1 } });
    openai = relay.r.client;
    await setOption('SafeKeyWords', 'Forbidden Thing\nsecret plan\nBlackbird');
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
  });
  beforeEach(async () => {
    relay.r.upstream.received.length = 0;
    relay.native.reset();
    await setOption('EnableSafe', 'true');
  });

  async function refusal(call: Promise<unknown>) {
    const error = await call.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeDefined();
    return error;
  }

  it('refuses an OpenAI chat whose message holds a listed word, in any case, and calls no upstream', async () => {
    const before = await storedQuota(relay.r);
    const error = await refusal(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'tell me about the FORBIDDEN thing please' }] }],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('content_security_policy_blocking');
    expect((error as Error).message).toContain('content contains sensitive information');
    expect(relay.r.upstream.received).toHaveLength(0);
    expect(await storedQuota(relay.r)).toBe(before);

    await relay.r.t.app.relay.flush();
    const row = await relay.r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 5)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.content).toContain('content contains sensitive information');
    expect(row.content.toLowerCase()).not.toContain('forbidden');
    expect(JSON.parse(row.metadata)).toMatchObject({ status: 400, error_code: 'content_security_policy_blocking' });
  });

  it('refuses the Claude and Gemini native surfaces and an image prompt alike', async () => {
    const claude = await refusal(
      relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 16,
        system: 'our secret plan is here',
        messages: [{ role: 'user', content: 'hello' }],
      }),
    );
    expect(claude).toBeInstanceOf(Anthropic.APIError);
    expect((claude as InstanceType<typeof Anthropic.APIError>).status).toBe(400);

    const gemini = await refusal(
      relay.gemini.models.generateContent({ model: GEMINI, contents: 'a Secret Plan indeed' }),
    );
    expect(gemini).toBeInstanceOf(ApiError);
    expect((gemini as ApiError).status).toBe(400);

    const image = await refusal(openai.images.generate({ model: 'dall-e-3', prompt: 'draw the forbidden thing' }));
    expect((image as InstanceType<typeof OpenAI.APIError>).code).toBe('content_security_policy_blocking');
    expect(relay.native.received).toHaveLength(0);
    expect(relay.r.upstream.received).toHaveLength(0);
  });

  it('refuses a listed word spelt in full-width letters or split by zero-width characters', async () => {
    for (const content of [
      'the ＦＯＲＢＩＤＤＥＮ ＴＨＩＮＧ',
      'the for\u200Bbid\u00ADden th\u2060ing',
      'se\uFEFFcret\u200C plan',
    ]) {
      const error = await refusal(
        openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
      );
      expect((error as InstanceType<typeof OpenAI.APIError>).status, content).toBe(400);
      expect((error as InstanceType<typeof OpenAI.APIError>).code, content).toBe('content_security_policy_blocking');
    }
    expect(relay.r.upstream.received).toHaveLength(0);
  });

  it('refuses a listed word in a tool description, tool-call arguments or a message name', async () => {
    const tool = (description: string) => ({
      type: 'function' as const,
      function: { name: 'lookup', description, parameters: { type: 'object', properties: {} } },
    });
    const requests: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming[] = [
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tools: [tool('reveal the secret plan')] },
      {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"\\u0073ecret plan"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        ],
      },
      { model: 'gpt-4o-mini', messages: [{ role: 'user', name: 'blackbird_7', content: 'hi' }] },
    ];
    for (const body of requests) {
      const error = await refusal(openai.chat.completions.create(body));
      expect((error as InstanceType<typeof OpenAI.APIError>).status, JSON.stringify(body)).toBe(400);
    }
    const claude = await refusal(
      relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 16,
        tools: [{ name: 'lookup', description: 'the Secret Plan tool', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'hello' }],
      }),
    );
    expect((claude as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    const gemini = await refusal(
      relay.gemini.models.generateContent({
        model: GEMINI,
        contents: [
          { role: 'user', parts: [{ text: 'hello' }] },
          { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'forbidden thing' } } }] },
        ],
      }),
    );
    expect((gemini as ApiError).status).toBe(400);
    expect(relay.r.upstream.received).toHaveLength(0);
    expect(relay.native.received).toHaveLength(0);
  });

  it('lets clean text through, and everything through once EnableSafe is off', async () => {
    const clean = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(clean.choices[0]?.message.content).toBe(relay.r.upstream.behaviour.reply);
    await setOption('EnableSafe', 'false');
    const flagged = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'the forbidden thing' }],
    });
    expect(flagged.choices[0]?.message.content).toBe(relay.r.upstream.behaviour.reply);
    expect(relay.r.upstream.received).toHaveLength(2);
  });
});
