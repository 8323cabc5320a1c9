import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE, GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import { storedQuota } from '../../../test/relay-setup.js';
import { requestTexts } from './content-safety.js';

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
    await setOption('SafeKeyWords', 'Forbidden Thing\nsecret plan');
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
