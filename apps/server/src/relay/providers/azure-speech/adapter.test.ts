import { describe, expect, it } from 'vitest';
import { findElement, parseXml, textOf } from '../../../../test/providers/azure-speech/xml.js';
import type { AdapterContext } from '../types.js';
import { azureSpeechAdapter, azureSpeechUrl, speechSsml } from './adapter.js';

const context = (overrides: Partial<AdapterContext> = {}): AdapterContext => ({
  key: 'azure-key',
  baseUrl: '',
  upstreamModel: 'tts-1',
  other: 'westeurope',
  plugin: {},
  headers: {},
  stream: false,
  now: 1_760_000_000,
  responseId: 'chatcmpl-azure',
  ...overrides,
});

const speech = azureSpeechAdapter.endpoints?.['/v1/audio/speech'];

describe('Azure Speech requests', () => {
  it("addresses the region's host, or the channel's base URL when it has one", () => {
    expect(azureSpeechUrl(context())).toBe('https://westeurope.tts.speech.microsoft.com/cognitiveservices/v1');
    expect(azureSpeechUrl(context({ other: ' EastUS ' }))).toBe(
      'https://eastus.tts.speech.microsoft.com/cognitiveservices/v1',
    );
    expect(azureSpeechUrl(context({ baseUrl: 'https://proxy.example.com/' }))).toBe(
      'https://proxy.example.com/cognitiveservices/v1',
    );
    expect(azureSpeechUrl(context({ baseUrl: 'https://proxy.example.com/cognitiveservices/v1' }))).toBe(
      'https://proxy.example.com/cognitiveservices/v1',
    );
    expect(() => azureSpeechUrl(context({ other: '' }))).toThrow(/region/);
    expect(() => azureSpeechUrl(context({ other: 'evil.example.com/x?' }))).toThrow(/region/);
  });

  it('writes SSML whose text, voice and role read back exactly, whatever characters they hold', () => {
    const text = `a < b && c > "d" 'e' </voice>`;
    const document = parseXml(speechSsml(text, 'zh-CN-YunxiNeural', { role: 'Boy"x', rate: 0.75 }));
    expect(document.attributes['xml:lang']).toBe('zh-CN');
    const voice = findElement(document, 'voice');
    expect(voice?.attributes.name).toBe('zh-CN-YunxiNeural');
    expect(findElement(document, 'mstts:express-as')?.attributes.role).toBe('Boy"x');
    expect(findElement(document, 'prosody')?.attributes.rate).toBe('0.75');
    expect(voice && textOf(voice)).toBe(text);
  });

  it('sends the key, the SSML type and the output format; the answer keeps the asked content type', async () => {
    if (!speech) throw new Error('Azure Speech serves speech');
    const ctx = context({ plugin: { voice: { nova: 'en-US-JennyNeural' } } });
    const call = await speech.build({ model: 'tts-1', input: 'Hi', voice: 'nova', response_format: 'opus' }, ctx);
    expect(call.headers).toMatchObject({
      'ocp-apim-subscription-key': 'azure-key',
      'content-type': 'application/ssml+xml',
      'x-microsoft-outputformat': 'ogg-24khz-16bit-mono-opus',
    });
    expect(findElement(parseXml(String(call.body)), 'voice')?.attributes.name).toBe('en-US-JennyNeural');
    const answer = await speech.parse(Buffer.from('OggS…'), ctx, () => Promise.reject(new Error('no follow-up')));
    expect(answer).toMatchObject({ contentType: 'audio/ogg' });
    expect(() => speech.build({ model: 'tts-1', input: 'Hi', speed: 'fast' }, ctx)).toThrow(/speed/);
    expect(() => speech.build({ model: 'tts-1', input: 'Hi', response_format: 'flac' }, ctx)).toThrow(
      /response_format/,
    );
  });

  it('refuses chat, so the relay tries another channel', () => {
    expect(azureSpeechAdapter.chat).toBe(false);
    expect(() => azureSpeechAdapter.buildChat({ model: 'x', messages: [] }, context())).toThrow(/speech only/);
  });
});
