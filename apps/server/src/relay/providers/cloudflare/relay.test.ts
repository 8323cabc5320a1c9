import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay } from '../../../../test/provider-relay.js';
import {
  ACCOUNT,
  CHAT_MODEL,
  CHAT_REPLY,
  CHAT_USAGE,
  EMBEDDING_MODEL,
  FLUX,
  heard,
  mockImage,
  SDXL,
  startCloudflareMock,
  WHISPER,
  WHISPER_TURBO,
} from '../../../../test/providers/cloudflare/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Cloudflare Workers AI end to end: a relay with channels keyed `ACCOUNT_ID|API_TOKEN` pointing at
 * a local Workers AI that checks the account in the path, the bearer token and each body. Chat
 * (OpenAI and Anthropic SDKs, whole and streamed) and embeddings go to the OpenAI-compatible
 * endpoints; images run the model, whose JSON (FLUX) or raw PNG (SDXL) answer comes back in
 * OpenAI's shape, billed per image; Cloudflare's error envelope is read; channel tests pick the
 * request by the model.
 */

const CLOUDFLARE = providerType('cloudflare');
const WRONG_TOKEN_MODEL = '@cf/meta/llama-3.2-3b-instruct';
const NO_ACCOUNT_MODEL = '@cf/qwen/qwq-32b';
const CHAT_RATIOS = [0.1, 0.3] as const;
const EMBEDDING_RATIO = 0.02;
const IMAGE_RATIO = 2;
const TRANSCRIPT_RATIO = 3;
const AUDIO = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 7) % 256));

describe('Cloudflare Workers AI channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startCloudflareMock,
    channels: (mock) => ({
      cloudflare: {
        type: CLOUDFLARE,
        key: `${ACCOUNT}|${mock.behaviour.token}`,
        models: [CHAT_MODEL, EMBEDDING_MODEL, FLUX, SDXL, WHISPER, WHISPER_TURBO].join(','),
      },
      'cloudflare-wrong-token': { type: CLOUDFLARE, key: `${ACCOUNT}|cf-not-the-token`, models: WRONG_TOKEN_MODEL },
      'cloudflare-no-account': { type: CLOUDFLARE, key: mock.behaviour.token, models: NO_ACCOUNT_MODEL },
    }),
    prices: {
      [CHAT_MODEL]: CHAT_RATIOS,
      [WRONG_TOKEN_MODEL]: CHAT_RATIOS,
      [NO_ACCOUNT_MODEL]: CHAT_RATIOS,
      [EMBEDDING_MODEL]: [EMBEDDING_RATIO, 0],
      [FLUX]: [IMAGE_RATIO, 0],
      [SDXL]: [IMAGE_RATIO, 0],
      [WHISPER]: [TRANSCRIPT_RATIO, TRANSCRIPT_RATIO],
      [WHISPER_TURBO]: [TRANSCRIPT_RATIO, TRANSCRIPT_RATIO],
    },
  });

  const root = `/client/v4/accounts/${ACCOUNT}/ai`;
  const chatQuota = Math.ceil(
    CHAT_USAGE.prompt_tokens * CHAT_RATIOS[0] + CHAT_USAGE.completion_tokens * CHAT_RATIOS[1],
  );

  it("chats at the account's OpenAI-compatible endpoint with the token alone, billed on its usage", async () => {
    const before = await relay.storedQuota();
    const completion = await relay.openai.chat.completions.create({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Say hello' }],
      temperature: 0.2,
    });
    expect(completion.choices[0]?.message.content).toBe(CHAT_REPLY);
    const sent = relay.sent();
    expect(sent).toMatchObject({ method: 'POST', path: `${root}/v1/chat/completions` });
    expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.token}`);
    expect(sent.body).toMatchObject({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Say hello' }],
      temperature: 0.2,
      stream: false,
    });
    expect(before - (await relay.storedQuota())).toBe(chatQuota);
    expect(await relay.lastConsumeLog()).toMatchObject({
      model_name: CHAT_MODEL,
      prompt_tokens: 17,
      completion_tokens: 6,
    });
  });

  it('streams chats to OpenAI and Anthropic clients, asking for usage', async () => {
    const before = await relay.storedQuota();
    const read = await relay.streamChat({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Say hello' }] });
    expect(read.text).toBe(CHAT_REPLY);
    expect(read.pieces).toBe(3);
    expect(relay.sent().body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(before - (await relay.storedQuota())).toBe(chatQuota);
    const streamed = await relay.streamMessage({
      model: CHAT_MODEL,
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(streamed.text).toBe(CHAT_REPLY);
    expect(streamed.final.usage).toMatchObject({ input_tokens: 17, output_tokens: 6 });
  });

  it('embeds at the OpenAI-compatible endpoint, counting the input when no usage comes', async () => {
    const before = await relay.storedQuota();
    const embedded = await relay.openai.embeddings.create({
      model: EMBEDDING_MODEL,
      input: ['hello world', 'again'],
      encoding_format: 'float',
    });
    expect(embedded.data.map((item) => item.embedding)).toEqual([
      [0.125, -0.5, 0],
      [0.125, -0.5, 1],
    ]);
    expect(relay.sent()).toMatchObject({
      path: `${root}/v1/embeddings`,
      body: { model: EMBEDDING_MODEL, input: ['hello world', 'again'] },
    });
    const log = await relay.lastConsumeLog();
    expect(log).toMatchObject({ model_name: EMBEDDING_MODEL });
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(before - (await relay.storedQuota())).toBe(Math.ceil(log.prompt_tokens * EMBEDDING_RATIO));
  });

  it('runs FLUX for images: its JSON image comes back as base64 or a JPEG data URL, no size sent', async () => {
    const before = await relay.storedQuota();
    const encoded = await relay.openai.images.generate({
      model: FLUX,
      prompt: 'a paper boat',
      size: '1024x1024',
      response_format: 'b64_json',
    });
    const sent = relay.sent();
    expect(sent).toMatchObject({ path: `${root}/run/${FLUX}`, body: { prompt: 'a paper boat' } });
    expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.token}`);
    expect(encoded.data).toEqual([{ b64_json: mockImage(FLUX, { prompt: 'a paper boat' }).toString('base64') }]);
    expect(before - (await relay.storedQuota())).toBe(1000 * IMAGE_RATIO);
    const linked = await relay.openai.images.generate({ model: FLUX, prompt: 'a paper boat', steps: 4 } as never);
    const image = mockImage(FLUX, { prompt: 'a paper boat', steps: 4 }).toString('base64');
    expect(linked.data).toEqual([{ url: `data:image/jpeg;base64,${image}` }]);
  });

  it('runs SDXL for images: its PNG bytes come back, one run per image with its size and seed', async () => {
    const before = await relay.storedQuota();
    const images = await relay.openai.images.generate({
      model: SDXL,
      prompt: 'a castle',
      size: '1024x768',
      n: 2,
      seed: 5,
      negative_prompt: 'fog',
      response_format: 'b64_json',
    } as never);
    const runs = relay.mock.received
      .filter((request) => request.path === `${root}/run/${SDXL}`)
      .sort((left, right) => Number(left.body.seed) - Number(right.body.seed));
    expect(runs.map((run) => run.body)).toEqual([
      { prompt: 'a castle', negative_prompt: 'fog', width: 1024, height: 768, seed: 5 },
      { prompt: 'a castle', negative_prompt: 'fog', width: 1024, height: 768, seed: 6 },
    ]);
    // The mock's image digests the body it got: the images come in the order of their seeds.
    expect(images.data?.map((image) => image.b64_json)).toEqual(
      runs.map((run) => mockImage(SDXL, run.body).toString('base64')),
    );
    expect(before - (await relay.storedQuota())).toBe(2 * 1000 * IMAGE_RATIO);
    expect(await relay.lastConsumeLog()).toMatchObject({ model_name: SDXL, prompt_tokens: 2000 });
  });

  it("transcribes the form's audio sent as the body, billed on the transcript's tokens", async () => {
    const before = await relay.storedQuota();
    const transcript = await relay.openai.audio.transcriptions.create({
      model: WHISPER,
      file: await toFile(AUDIO, 'speech.wav', { type: 'audio/wav' }),
    });
    expect(transcript.text).toBe(heard(AUDIO));
    const sent = relay.sent();
    expect(sent).toMatchObject({ method: 'POST', path: `${root}/run/${WHISPER}` });
    expect(sent.headers['content-type']).toBe('application/octet-stream');
    expect(sent.raw.equals(AUDIO)).toBe(true);
    const log = await relay.lastConsumeLog();
    expect(log).toMatchObject({ model_name: WHISPER, prompt_tokens: 0 });
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(before - (await relay.storedQuota())).toBe(log.completion_tokens * TRANSCRIPT_RATIO);
    const plain = await relay.openai.audio.transcriptions.create({
      model: WHISPER,
      file: await toFile(AUDIO, 'speech.wav', { type: 'audio/wav' }),
      response_format: 'text',
    });
    expect(String(plain)).toBe(heard(AUDIO));
  });

  it('sends turbo Whisper the audio as base64 with the language and prompt, answering verbose JSON', async () => {
    const transcript = await relay.openai.audio.transcriptions.create({
      model: WHISPER_TURBO,
      file: await toFile(AUDIO, 'speech.mp3', { type: 'audio/mpeg' }),
      language: 'de',
      prompt: 'Namen: Jürgen',
      response_format: 'verbose_json',
    });
    expect(relay.sent().body).toEqual({
      audio: AUDIO.toString('base64'),
      language: 'de',
      initial_prompt: 'Namen: Jürgen',
    });
    expect(transcript).toMatchObject({ task: 'transcribe', language: 'de', duration: 1.5, text: heard(AUDIO) });
    const before = await relay.storedQuota();
    const refused = await failureOf(
      relay.openai.audio.transcriptions.create({
        model: WHISPER,
        file: await toFile(AUDIO, 'speech.wav'),
        response_format: 'srt',
      }),
    );
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toContain('response_format');
    expect(relay.mock.received).toHaveLength(1);
    expect(await relay.storedQuota()).toBe(before);
  });

  it("reads Cloudflare's error envelope: the model's schema error is the client's 400", async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(relay.openai.images.generate({ model: FLUX, prompt: 'x', steps: 20 } as never));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("'/steps' must be <= 8 (5006)");
    const size = await failureOf(relay.openai.images.generate({ model: SDXL, prompt: 'x', size: 'big' as never }));
    expect(size).toBeInstanceOf(OpenAI.BadRequestError);
    expect((size as Error).message).toContain('size');
    expect(await relay.storedQuota()).toBe(before);
  });

  it("reports a wrong token or a key without the account as the channel's failure, never echoing it", async () => {
    const wrong = await failureOf(
      relay.openai.chat.completions.create({ model: WRONG_TOKEN_MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect((wrong as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((wrong as Error).message).toContain('Authentication error (10000)');
    expect((wrong as Error).message).not.toContain('cf-not-the-token');
    relay.mock.reset();
    const noAccount = await failureOf(
      relay.openai.chat.completions.create({ model: NO_ACCOUNT_MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect((noAccount as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((noAccount as Error).message).toContain('ACCOUNT_ID|API_TOKEN');
    expect(relay.mock.received).toHaveLength(0);
  });

  it('is tested by the model: a chat, an embedding or an image, billing nothing', async () => {
    const before = await relay.storedQuota();
    const id = relay.channelIds.cloudflare;
    for (const [model, path] of [
      [CHAT_MODEL, `${root}/v1/chat/completions`],
      [EMBEDDING_MODEL, `${root}/v1/embeddings`],
      [FLUX, `${root}/run/${FLUX}`],
    ] as const) {
      const tested = await relay.context.admin('GET', `/api/channel/test/${id}?model=${encodeURIComponent(model)}`);
      expect(tested.body, model).toMatchObject({ success: true, message: '' });
      expect(relay.sent().path).toBe(path);
    }
    expect(await relay.storedQuota()).toBe(before);
    const wrong = relay.channelIds['cloudflare-wrong-token'];
    const failed = await relay.context.admin(
      'GET',
      `/api/channel/test/${wrong}?model=${encodeURIComponent(WRONG_TOKEN_MODEL)}`,
    );
    expect(failed.body).toMatchObject({ success: false });
    expect(failed.body.message).toContain('Authentication error');
  });
});
