import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  lastConsumeLog,
  type RelayTestContext,
  relayPost,
  startRelayWithChannel,
  storedQuota,
} from '../../../test/relay-setup.js';

const AUDIO = Buffer.from('fake mp3 bytes for the mock');
const audio = () => toFile(AUDIO, 'speech.mp3', { type: 'audio/mpeg' });
// 'Hello from the mock upstream.' (the mock's transcript) is 6 tokens with o200k.
const TRANSCRIPT_TOKENS = 6;
// gpt-4o-transcribe reports 12 audio input tokens and 7 output tokens: 12 × 1.25 + 7 × 5.
const TRANSCRIBE_COST = 50;

describe('audio through the official openai SDK', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayWithChannel(
      {
        name: 'audio',
        models: 'tts-1,whisper-1,gpt-4o-transcribe',
        model_mapping: '{"tts-1": "+tts-1-upstream", "whisper-1": "+whisper-upstream"}',
      },
      { 'tts-1': [7.5, 0], 'whisper-1': [15, 15], 'gpt-4o-transcribe': [1.25, 5] },
    );
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = { ...r.upstream.behaviour, chunks: 3, chunkDelayMs: 0, omitUsage: false };
  });

  it('streams speech bytes with the upstream content type and bills one token per character', async () => {
    r.upstream.behaviour.chunkDelayMs = 5;
    const input = 'Hello there, 世界!';
    const before = await storedQuota(r);
    const response = await r.client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('x-oneapi-request-id')).toBeTruthy();
    expect(Buffer.from(await response.arrayBuffer()).equals(r.upstream.behaviour.speech)).toBe(true);
    const received = r.upstream.received.at(-1);
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toEqual({ model: 'tts-1-upstream', voice: 'alloy', input });
    // 16 characters (not 18 UTF-16 units, not 22 bytes) at 7.5.
    expect(before - (await storedQuota(r))).toBe(120);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'tts-1', prompt_tokens: 16, completion_tokens: 0 });
    expect(Number(log.quota)).toBe(120);
  });

  it('passes the response format through and keeps its content type', async () => {
    const response = await r.client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'hi',
      response_format: 'wav',
    });
    expect(response.headers.get('content-type')).toBe('audio/wav');
  });

  it('bills a whisper transcript on the tokens of its text, ignoring a duration usage', async () => {
    const before = await storedQuota(r);
    const transcription = await r.client.audio.transcriptions.create({ file: await audio(), model: 'whisper-1' });
    expect(transcription.text).toBe('Hello from the mock upstream.');
    const received = r.upstream.received.at(-1);
    expect(received?.path).toBe('/v1/audio/transcriptions');
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toMatchObject({ model: 'whisper-upstream' });
    expect(received?.files).toEqual([
      { field: 'file', filename: 'speech.mp3', type: 'audio/mpeg', size: AUDIO.length },
    ]);
    expect(before - (await storedQuota(r))).toBe(TRANSCRIPT_TOKENS * 15);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'whisper-1', prompt_tokens: 0, completion_tokens: TRANSCRIPT_TOKENS });
  });

  it('bills the token usage gpt-4o-transcribe reports, also when streamed', async () => {
    let before = await storedQuota(r);
    await r.client.audio.transcriptions.create({ file: await audio(), model: 'gpt-4o-transcribe' });
    expect(before - (await storedQuota(r))).toBe(TRANSCRIBE_COST);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'gpt-4o-transcribe', prompt_tokens: 12, completion_tokens: 7 });
    expect(JSON.parse(log.metadata)).toMatchObject({ input_audio_tokens: 12 });

    before = await storedQuota(r);
    const stream = await r.client.audio.transcriptions.create({
      file: await audio(),
      model: 'gpt-4o-transcribe',
      stream: true,
    });
    let text = '';
    for await (const event of stream) if (event.type === 'transcript.text.delta') text += event.delta;
    expect(text).toBe('Hello from the mock upstream.');
    expect(r.upstream.received.at(-1)?.body).toMatchObject({ stream: 'true' });
    expect(before - (await storedQuota(r))).toBe(TRANSCRIBE_COST);
  });

  it('bills a plain-text translation on the tokens of the text', async () => {
    const before = await storedQuota(r);
    const translation = await r.client.audio.translations.create({
      file: await audio(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(String(translation).trim()).toBe('Hello from the mock upstream.');
    expect(r.upstream.received.at(-1)?.path).toBe('/v1/audio/translations');
    expect(before - (await storedQuota(r))).toBe(TRANSCRIPT_TOKENS * 15);
  });

  it('rejects bad input with a 4xx before any upstream call or charge', async () => {
    const before = await storedQuota(r);
    const calls = r.upstream.received.length;
    const post = (path: string, body: string | FormData, contentType?: string) => relayPost(r, path, body, contentType);
    const speech = (body: unknown) => post('/audio/speech', JSON.stringify(body), 'application/json');
    expect((await speech({ model: 'tts-1', voice: 'alloy' })).status).toBe(400);
    expect((await speech({ model: 'tts-1', voice: 'alloy', input: 5 })).status).toBe(400);
    expect((await speech({ voice: 'alloy', input: 'hi' })).status).toBe(400);

    const form = (fields: Record<string, string>, withFile: boolean) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      if (withFile) data.append('file', new Blob([AUDIO], { type: 'audio/mpeg' }), 'speech.mp3');
      return data;
    };
    const missingModel = await post('/audio/transcriptions', form({}, true));
    expect(missingModel.status).toBe(400);
    expect(((await missingModel.json()) as { error: { param: string } }).error.param).toBe('model');
    expect((await post('/audio/transcriptions', form({ model: 'whisper-1' }, false))).status).toBe(400);
    expect((await post('/audio/translations', form({ model: '' }, true))).status).toBe(400);
    const huge = form({ model: 'whisper-1' }, false);
    huge.append('file', new Blob([Buffer.alloc(11 * 1024 * 1024)]), 'long.mp3');
    expect((await post('/audio/transcriptions', huge)).status).toBe(413);
    expect(r.upstream.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
  });
});
