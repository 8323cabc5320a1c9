import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay } from '../../../../test/provider-relay.js';
import { minimaxAudio, startMinimaxMock } from '../../../../test/providers/minimax/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * MiniMax end to end: a real relay with a MiniMax channel pointing at a local MiniMax that checks
 * the bearer key and the T2A v2 body, driven by the official OpenAI SDK: speech comes back as the
 * bytes of MiniMax's hex audio, billed one token per character; `base_resp` failures inside a 200
 * answer are mapped to HTTP errors; chat still passes through in OpenAI's format.
 */

const MINIMAX = providerType('minimax');
const SPEECH = 'speech-02-hd';
const WRONG_KEY_MODEL = 'speech-02-turbo';
const CHAT = 'MiniMax-Text-01';
const RATIO = 2;

describe('MiniMax channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startMinimaxMock,
    channels: (mock) => ({
      minimax: {
        type: MINIMAX,
        key: mock.behaviour.apiKey,
        models: `${SPEECH},${CHAT}`,
        plugin: { voice: { alloy: 'female-tianmei|happy' } },
      },
      'minimax-wrong-key': { type: MINIMAX, key: 'not-the-key', models: WRONG_KEY_MODEL },
    }),
    prices: { [SPEECH]: [RATIO, 0], [WRONG_KEY_MODEL]: [RATIO, 0], [CHAT]: [1, 1] },
  });

  const speak = (params: Partial<OpenAI.Audio.SpeechCreateParams>) =>
    relay.openai.audio.speech.create({ model: SPEECH, voice: 'alloy', input: 'Hello', ...params });

  it('sends T2A v2 with the mapped voice and emotion, decodes the hex audio and bills per character', async () => {
    const input = 'Hello, 世界! <b>&</b>';
    const before = await relay.storedQuota();
    const response = await speak({ input, speed: 1.25 });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(minimaxAudio('mp3', 'female-tianmei', input))).toBe(true);

    const sent = relay.sent();
    expect(sent.path).toBe('/v1/t2a_v2');
    expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    expect(sent.body).toEqual({
      model: SPEECH,
      text: input,
      stream: false,
      voice_setting: { voice_id: 'female-tianmei', speed: 1.25, emotion: 'happy' },
      audio_setting: { format: 'mp3' },
    });

    const characters = [...input].length;
    expect(before - (await relay.storedQuota())).toBe(characters * RATIO);
    expect(await relay.lastConsumeLog()).toMatchObject({
      model_name: SPEECH,
      prompt_tokens: characters,
      completion_tokens: 0,
    });
  });

  it('maps the default voices, passes a MiniMax voice id as it is, and honours wav and flac', async () => {
    const wav = await speak({ voice: 'onyx', response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(relay.sent().body).toMatchObject({
      voice_setting: { voice_id: 'presenter_male' },
      audio_setting: { format: 'wav' },
    });
    const flac = await speak({ voice: 'male-qn-qingse' as OpenAI.Audio.SpeechCreateParams['voice'], speed: 3 });
    expect(flac.headers.get('content-type')).toBe('audio/mpeg');
    // MiniMax's speed range ends at 2.
    expect(relay.sent().body).toMatchObject({ voice_setting: { voice_id: 'male-qn-qingse', speed: 2 } });
    expect(await (await speak({ response_format: 'flac' })).arrayBuffer()).toBeTruthy();
    expect(relay.sent().body).toMatchObject({ audio_setting: { format: 'flac' } });
  });

  it("maps base_resp errors of a 200 answer: an unknown voice is the client's 400, charging nothing", async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(speak({ voice: 'nobody' as OpenAI.Audio.SpeechCreateParams['voice'] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('voice id not exist');
    expect(await relay.storedQuota()).toBe(before);
  });

  it('maps a rate limit to 429 and a bad key to the channel failure, naming MiniMax', async () => {
    relay.mock.behaviour.rateLimited = true;
    const limited = await failureOf(speak({}));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as Error).message).toContain('rate limit');
    relay.mock.behaviour.rateLimited = false;

    const refused = await failureOf(speak({ model: WRONG_KEY_MODEL }));
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((refused as Error).message).toContain('login fail');
    expect((refused as Error).message).not.toContain('not-the-key');
  });

  it('refuses a format MiniMax cannot give without calling it', async () => {
    const error = await failureOf(speak({ response_format: 'opus' }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('response_format');
    expect(relay.mock.received).toHaveLength(0);
  });

  it("keeps chat on MiniMax's OpenAI-format API, passed through", async () => {
    const completion = await relay.openai.chat.completions.create({
      model: CHAT,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
    expect(relay.sent().path).toBe('/v1/chat/completions');
    expect(relay.sent().headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    const log = await relay.lastConsumeLog();
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 9, completion_tokens: 5 });
    // The chat model is priced 1 a token each way.
    expect(Number(log.quota)).toBe(9 * 1 + 5 * 1);
  });
});
