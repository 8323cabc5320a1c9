import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay, weatherTool } from '../../../../test/provider-relay.js';
import {
  FLUX,
  LLAMA,
  mockFileBytes,
  REPLY_PIECES,
  REPORTED_TOKENS,
  startReplicateMock,
} from '../../../../test/providers/replicate/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';
import { registerChatAdapter } from '../adapters.js';
import { createReplicateAdapter } from './adapter.js';
import { DEFAULT_POLL_TIMING, type PollTiming } from './prediction.js';

/**
 * Replicate end to end: a relay with Replicate channels pointing at a local Replicate that checks
 * the bearer token, the prediction paths, the `Prefer: wait` header and the input of every
 * prediction. Chat (OpenAI and Anthropic SDKs) and images (OpenAI SDK) are predictions polled
 * from starting through processing to their end, billed on the reported token counts (or counted)
 * and per image; failed, canceled and never-ending predictions end as clear errors charging
 * nothing. The polling runs on a virtual clock: the pauses are the real ones, taken instantly.
 */

const REPLICATE = providerType('replicate');
const VERSIONED = 'owner/versioned-llama:5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa';
const WRONG_KEY_MODEL = 'meta/meta-llama-3-70b-instruct';
const CHAT_RATIOS = [0.5, 1.5] as const;
const IMAGE_RATIO = 1.5;
const REPLY = REPLY_PIECES.join('');

/** The default schedule on a clock that moves only when the adapter pauses. */
function virtualTiming(): PollTiming & { pauses: number[] } {
  let now = 0;
  const pauses: number[] = [];
  return {
    ...DEFAULT_POLL_TIMING,
    pauses,
    now: () => now,
    sleep(ms) {
      pauses.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

describe('Replicate channels through the relay', () => {
  const timing = virtualTiming();
  const relay = useProviderRelay({
    startMock: startReplicateMock,
    channels: (mock) => ({
      replicate: { type: REPLICATE, key: mock.behaviour.apiKey, models: [LLAMA, FLUX, VERSIONED].join(',') },
      'replicate-wrong-key': { type: REPLICATE, key: 'r8_not_the_token', models: WRONG_KEY_MODEL },
    }),
    prices: {
      [LLAMA]: CHAT_RATIOS,
      [VERSIONED]: CHAT_RATIOS,
      [WRONG_KEY_MODEL]: CHAT_RATIOS,
      [FLUX]: [IMAGE_RATIO, 0],
    },
  });

  beforeAll(() => {
    registerChatAdapter(REPLICATE, createReplicateAdapter(timing));
  });

  const creates = () =>
    relay.mock.received.filter((request) => request.method === 'POST' && !request.path.endsWith('/cancel'));
  const polls = () =>
    relay.mock.received.filter((request) => request.method === 'GET' && request.path.startsWith('/v1/'));
  const chat = (params: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    relay.openai.chat.completions.create({
      model: LLAMA,
      messages: [{ role: 'user', content: 'Hi there' }],
      ...params,
    });

  it('runs a chat as a prediction polled from starting to succeeded, billed on its reported tokens', async () => {
    relay.mock.behaviour.steps = ['starting', 'processing', 'processing'];
    const before = await relay.storedQuota();
    const completion = await chat({
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Hi there' },
      ],
      max_tokens: 50,
      temperature: 0.5,
      stop: ['END', 'STOP'],
    });
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    expect(completion.usage).toMatchObject({
      prompt_tokens: REPORTED_TOKENS.input,
      completion_tokens: REPORTED_TOKENS.output,
    });
    const [created] = creates();
    expect(created).toMatchObject({ method: 'POST', path: `/v1/models/${LLAMA}/predictions` });
    expect(created?.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    expect(created?.headers.prefer).toBe('wait');
    expect(created?.body).toEqual({
      input: {
        prompt: 'Hi there',
        system_prompt: 'Answer briefly.',
        max_tokens: 50,
        temperature: 0.5,
        stop_sequences: 'END,STOP',
      },
    });
    // Created answering "starting", then read three times: processing, processing, succeeded.
    expect(polls()).toHaveLength(3);
    expect(polls().every((poll) => poll.headers.authorization === `Bearer ${relay.mock.behaviour.apiKey}`)).toBe(true);
    const quota = REPORTED_TOKENS.input * CHAT_RATIOS[0] + REPORTED_TOKENS.output * CHAT_RATIOS[1];
    expect(before - (await relay.storedQuota())).toBe(Math.ceil(quota));
    expect(await relay.lastConsumeLog()).toMatchObject({
      model_name: LLAMA,
      prompt_tokens: REPORTED_TOKENS.input,
      completion_tokens: REPORTED_TOKENS.output,
    });
  });

  it('writes a conversation out as the prompt, and counts tokens itself when none are reported', async () => {
    relay.mock.behaviour.reportTokens = false;
    const before = await relay.storedQuota();
    const completion = await chat({
      messages: [
        { role: 'user', content: 'Name a colour.' },
        { role: 'assistant', content: 'Blue.' },
        { role: 'user', content: [{ type: 'text', text: 'Another one?' }] },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    expect(creates()[0]?.body.input).toEqual({
      prompt: 'User: Name a colour.\n\nAssistant: Blue.\n\nUser: Another one?',
    });
    const log = await relay.lastConsumeLog();
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(before - (await relay.storedQuota())).toBe(log.quota);
    expect(log.quota).toBe(Math.ceil(log.prompt_tokens * CHAT_RATIOS[0] + log.completion_tokens * CHAT_RATIOS[1]));
  });

  it('gives a vision model one image as its `image` input, and refuses two with a 400', async () => {
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const asked = (count: number): OpenAI.ChatCompletionContentPart[] => [
      { type: 'text', text: 'What is in the picture?' },
      ...Array.from({ length: count }, () => ({ type: 'image_url' as const, image_url: { url: image } })),
    ];
    const completion = await chat({ messages: [{ role: 'user', content: asked(1) }] });
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    expect(creates()[0]?.body.input).toEqual({ prompt: 'What is in the picture?', image });
    const refused = await failureOf(chat({ messages: [{ role: 'user', content: asked(2) }] }));
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((refused as Error).message)).toContain('messages: Replicate vision models take one image, not 2');
    expect(creates()).toHaveLength(1);
  });

  it('serves Anthropic clients by translation, and versioned models at /v1/predictions', async () => {
    const message = await relay.claude.messages.create({
      model: VERSIONED,
      max_tokens: 64,
      system: 'Be kind.',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: REPLY });
    const [created] = creates();
    expect(created).toMatchObject({ path: '/v1/predictions' });
    expect(created?.body).toEqual({
      version: VERSIONED.split(':')[1],
      input: { prompt: 'Hello', system_prompt: 'Be kind.', max_tokens: 64 },
    });
  });

  it('refuses a stream and tools with a 400 naming them, before any prediction or charge', async () => {
    const before = await relay.storedQuota();
    const streamed = await failureOf(relay.streamChat({ model: LLAMA, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((streamed as Error).message).toContain('stream');
    const tools = await failureOf(chat({ tools: [weatherTool] }));
    expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
    expect((tools as Error).message).toContain('tools');
    expect(relay.mock.received).toHaveLength(0);
    expect(await relay.storedQuota()).toBe(before);
  });

  it("passes Replicate's input validation 422 on, and reports a wrong key as the channel's failure", async () => {
    const before = await relay.storedQuota();
    const invalid = await failureOf(chat({ max_tokens: 100_000 }));
    expect(invalid).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((invalid as Error).message).toContain('max_tokens');
    const wrongKey = await failureOf(chat({ model: WRONG_KEY_MODEL }));
    expect((wrongKey as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((wrongKey as Error).message).toContain('Unauthenticated');
    expect((wrongKey as Error).message).not.toContain('r8_not_the_token');
    expect(await relay.storedQuota()).toBe(before);
  });

  it('ends a failed prediction as an error carrying its reason, charging nothing', async () => {
    relay.mock.behaviour.steps = ['starting', 'processing'];
    relay.mock.behaviour.end = 'failed';
    const before = await relay.storedQuota();
    const error = await failureOf(chat());
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as Error).message).toContain('prediction failed: CUDA out of memory');
    expect(polls()).toHaveLength(2);
    expect(await relay.storedQuota()).toBe(before);
  });

  it('cancels a prediction still running after five minutes of back-off and says so', async () => {
    relay.mock.behaviour.neverFinish = true;
    timing.pauses.length = 0;
    const before = await relay.storedQuota();
    const error = await failureOf(relay.openai.images.generate({ model: FLUX, prompt: 'a slow painting' }));
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect((error as Error).message).toContain('did not finish within 5 min');
    const cancel = relay.mock.received.at(-1);
    expect(cancel).toMatchObject({ method: 'POST' });
    expect(cancel?.path).toMatch(/^\/v1\/predictions\/\w+\/cancel$/);
    // The pauses grow, never pass the longest step, and add up to the deadline.
    expect(timing.pauses.slice(0, 3)).toEqual(DEFAULT_POLL_TIMING.delaysMs.slice(0, 3));
    expect(Math.max(...timing.pauses)).toBe(Math.max(...DEFAULT_POLL_TIMING.delaysMs));
    expect(timing.pauses.reduce((sum, pause) => sum + pause, 0)).toBe(DEFAULT_POLL_TIMING.deadlineMs);
    expect(polls()).toHaveLength(timing.pauses.length);
    expect(await relay.storedQuota()).toBe(before);
  });

  it('generates images as predictions: output URLs as they are, billed per image', async () => {
    relay.mock.behaviour.steps = ['starting', 'processing'];
    const before = await relay.storedQuota();
    const images = await relay.openai.images.generate({ model: FLUX, prompt: 'two owls', n: 2, size: '1792x1024' });
    const [created] = creates();
    expect(created).toMatchObject({ path: `/v1/models/${FLUX}/predictions` });
    expect(created?.body).toEqual({ input: { prompt: 'two owls', aspect_ratio: '16:9', num_outputs: 2 } });
    const urls = images.data?.map((image) => image.url) ?? [];
    expect(urls).toHaveLength(2);
    for (const [index, url] of urls.entries())
      expect(url).toMatch(new RegExp(`^${relay.mock.url}/files/\\w+-${index}\\.webp$`));
    expect(polls()).toHaveLength(2);
    expect(before - (await relay.storedQuota())).toBe(2 * 1000 * IMAGE_RATIO);
    expect(await relay.lastConsumeLog()).toMatchObject({ model_name: FLUX, prompt_tokens: 2000 });
  });

  it('downloads the output files for b64_json and passes extra model inputs through', async () => {
    const images = await relay.openai.images.generate({
      model: FLUX,
      prompt: 'an owl',
      response_format: 'b64_json',
      seed: 42,
      output_format: 'webp',
      go_fast: true,
    } as OpenAI.ImageGenerateParamsNonStreaming);
    expect(creates()[0]?.body).toEqual({ input: { prompt: 'an owl', seed: 42, output_format: 'webp', go_fast: true } });
    const file = relay.mock.received.find((request) => request.path.startsWith('/files/'));
    const name = file?.path.slice('/files/'.length) ?? '';
    expect(images.data).toEqual([{ b64_json: mockFileBytes(name).toString('base64') }]);
  });

  it('is tested with a chat or an image by the model, billing nothing; a wrong key fails the test', async () => {
    relay.mock.behaviour.steps = ['processing'];
    const before = await relay.storedQuota();
    const id = relay.channelIds.replicate;
    const chatTest = await relay.context.admin('GET', `/api/channel/test/${id}?model=${LLAMA}`);
    expect(chatTest.body).toMatchObject({ success: true, message: '' });
    expect(creates()[0]?.body).toEqual({ input: { prompt: "You just need to output 'hi' next." } });
    relay.mock.reset();
    const imageTest = await relay.context.admin('GET', `/api/channel/test/${id}?model=${FLUX}`);
    expect(imageTest.body).toMatchObject({ success: true, message: '' });
    expect(creates()[0]?.body).toEqual({ input: { prompt: 'A cute cat' } });
    expect(await relay.storedQuota()).toBe(before);
    const failed = await relay.context.admin(
      'GET',
      `/api/channel/test/${relay.channelIds['replicate-wrong-key']}?model=${WRONG_KEY_MODEL}`,
    );
    expect(failed.body).toMatchObject({ success: false });
    expect(failed.body.message).toContain('Unauthenticated');
  });
});
