import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay } from '../../../../test/provider-relay.js';
import { mockAudio, startAzureSpeechMock } from '../../../../test/providers/azure-speech/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Azure Speech end to end: a real relay with an Azure Speech channel pointing at a local Azure
 * text-to-speech service that checks the subscription key, the headers and the SSML (parsed
 * strictly), driven by the official OpenAI SDK's `audio.speech.create`; the bytes, their content
 * type, the quota taken (one token per character) and the consume log are checked.
 */

const AZURE_SPEECH = providerType('azure-speech');
const TTS = 'tts-1';
const WRONG_KEY_MODEL = 'tts-wrong-key';
const CHAT = 'gpt-4o-mini';
const TTS_RATIO = 7.5;

describe('Azure Speech channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startAzureSpeechMock,
    channels: (mock) => ({
      'azure-speech': {
        type: AZURE_SPEECH,
        key: mock.behaviour.key,
        other: 'eastus',
        // Also listed for chat, at a higher priority than the OpenAI channel that serves it.
        models: `${TTS},${CHAT}`,
        priority: 10,
        plugin: { voice: { alloy: 'zh-CN-XiaoxiaoNeural', shimmer: 'en-US-JennyNeural|Girl' } },
      },
      'azure-speech-wrong-key': { type: AZURE_SPEECH, key: 'not-the-key', other: 'eastus', models: WRONG_KEY_MODEL },
    }),
    prices: { [TTS]: [TTS_RATIO, 0], [WRONG_KEY_MODEL]: [TTS_RATIO, 0] },
  });

  beforeEach(async () => {
    // A channel a test's failure disabled must not change the next test.
    await relay.context.t.services.options.update('AutomaticDisableChannelEnabled', 'false');
  });

  const speak = (params: Partial<OpenAI.Audio.SpeechCreateParams>) =>
    relay.openai.audio.speech.create({ model: TTS, voice: 'alloy', input: 'Hello', ...params });

  it('speaks with the mapped voice, the text escaped in the SSML, and bills one token per character', async () => {
    const input = `Tom & Jerry say "hi" <loudly> and 'bye' — 你好 &amp; done`;
    const before = await relay.storedQuota();
    const response = await speak({ input });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(mockAudio('audio-24khz-48kbitrate-mono-mp3', 'zh-CN-XiaoxiaoNeural', input))).toBe(true);

    const sent = relay.sent();
    expect(sent.path).toBe('/cognitiveservices/v1');
    expect(sent.headers['ocp-apim-subscription-key']).toBe(relay.mock.behaviour.key);
    expect(sent.headers['content-type']).toBe('application/ssml+xml');
    expect(sent.headers['x-microsoft-outputformat']).toBe('audio-24khz-48kbitrate-mono-mp3');
    expect(sent.headers['user-agent']).toBeTruthy();
    expect(sent.headers.authorization).toBeUndefined();
    // The mock's strict reader gave back the very text: nothing unescaped, nothing escaped twice.
    expect(sent.text).toBe(input);
    expect(sent).toMatchObject({ voice: 'zh-CN-XiaoxiaoNeural', lang: 'zh-CN', rate: undefined, role: undefined });

    const characters = [...input].length;
    expect(before - (await relay.storedQuota())).toBe(Math.ceil(characters * TTS_RATIO));
    const log = await relay.lastConsumeLog();
    expect(log).toMatchObject({ model_name: TTS, prompt_tokens: characters, completion_tokens: 0 });
  });

  it('maps the default voices with their role, turns speed into the prosody rate and honours the format', async () => {
    await speak({ voice: 'fable', speed: 1.5, response_format: 'wav' }).then(async (response) => {
      expect(response.headers.get('content-type')).toBe('audio/wav');
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 4)
          .toString(),
      ).toBe('RIFF');
    });
    expect(relay.sent()).toMatchObject({ voice: 'zh-CN-YunxiNeural', role: 'Boy', rate: '1.5' });
    expect(relay.sent().headers['x-microsoft-outputformat']).toBe('riff-24khz-16bit-mono-pcm');

    // The channel's mapping with a role, and a speed beyond Azure's range held at its limit.
    const opus = await speak({ voice: 'shimmer', speed: 4, response_format: 'opus' });
    expect(opus.headers.get('content-type')).toBe('audio/ogg');
    expect(relay.sent()).toMatchObject({ voice: 'en-US-JennyNeural', lang: 'en-US', role: 'Girl', rate: '2' });

    const pcm = await speak({ voice: 'echo', response_format: 'pcm', speed: 1 });
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    expect(relay.sent()).toMatchObject({ voice: 'zh-CN-YunyangNeural', rate: undefined });
    expect(relay.sent().headers['x-microsoft-outputformat']).toBe('raw-24khz-16bit-mono-pcm');
  });

  it('takes an Azure voice named directly as it is', async () => {
    await speak({ voice: 'en-US-AvaMultilingualNeural' as OpenAI.Audio.SpeechCreateParams['voice'], input: 'Hi.' });
    expect(relay.sent()).toMatchObject({ voice: 'en-US-AvaMultilingualNeural', lang: 'en-US', text: 'Hi.' });
  });

  it("answers Azure's 400 for a voice it does not have as a 400, charging nothing", async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(speak({ voice: 'xx-XX-NobodyNeural' as OpenAI.Audio.SpeechCreateParams['voice'] }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('unknown voice');
    expect(relay.mock.received).toHaveLength(1);
    expect(await relay.storedQuota()).toBe(before);
  });

  it('refuses a format Azure cannot give without calling it, charging nothing', async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(speak({ response_format: 'aac' }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('response_format');
    expect(relay.mock.received).toHaveLength(0);
    expect(await relay.storedQuota()).toBe(before);
  });

  it("reports a wrong key as the channel's failure", async () => {
    const error = await failureOf(speak({ model: WRONG_KEY_MODEL }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as Error).message).toContain('Access denied');
    expect((error as Error).message).not.toContain('not-the-key');
  });

  it('leaves chat to other channels: the OpenAI channel answers, Azure is never called', async () => {
    const completion = await relay.openai.chat.completions.create({
      model: CHAT,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(relay.mock.received).toHaveLength(0);
    expect(relay.context.upstream.received.at(-1)?.path).toBe('/v1/chat/completions');
  });

  it('is tested by speaking "hi" with the mapped voice, billing nothing; a wrong key fails the test', async () => {
    const before = await relay.storedQuota();
    const tested = await relay.context.admin(
      'GET',
      `/api/channel/test/${relay.channelIds['azure-speech']}?model=${TTS}`,
    );
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, message: '' });
    expect(relay.sent()).toMatchObject({ path: '/cognitiveservices/v1', voice: 'zh-CN-XiaoxiaoNeural', text: 'hi' });
    expect(await relay.storedQuota()).toBe(before);

    const wrongKey = relay.channelIds['azure-speech-wrong-key'];
    const failed = await relay.context.admin('GET', `/api/channel/test/${wrongKey}?model=${WRONG_KEY_MODEL}`);
    expect(failed.body).toMatchObject({ success: false });
    expect(failed.body.message).toContain('Access denied');
  });
});
