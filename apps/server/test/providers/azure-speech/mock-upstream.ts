import { createServer, type IncomingMessage } from 'node:http';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';
import { findElement, parseXml, textOf, type XmlElement } from './xml.js';

/**
 * A local stand-in for Azure AI Speech's text-to-speech REST API (`<region>.tts.speech.microsoft.com`),
 * checking what its documentation asks of a request:
 *
 * - only `POST /cognitiveservices/v1`; other paths 404.
 * - `Ocp-Apim-Subscription-Key` must be the key (401 with Azure's JSON error otherwise).
 * - `Content-Type: application/ssml+xml`, `X-Microsoft-OutputFormat` one of Azure's format names,
 *   and a `User-Agent`; else 400.
 * - the body is well-formed SSML: `<speak version="1.0" xml:lang=…>` in the synthesis namespace
 *   with one `<voice name=…>` naming a voice this "region" has (else 400 with an empty body, as
 *   Azure answers an unknown voice); `<prosody rate>` and `<mstts:express-as role>` are read.
 *
 * The audio is made of the format's magic bytes, the voice and the text, so a test can tell which
 * request produced it.
 */

/** The format names the mock takes (a subset of Azure's list), with the bytes such audio starts with. */
const FORMATS: Record<string, { contentType: string; magic: string }> = {
  'audio-24khz-48kbitrate-mono-mp3': { contentType: 'audio/mpeg', magic: 'ID3' },
  'audio-16khz-128kbitrate-mono-mp3': { contentType: 'audio/mpeg', magic: 'ID3' },
  'ogg-24khz-16bit-mono-opus': { contentType: 'audio/ogg', magic: 'OggS' },
  'riff-24khz-16bit-mono-pcm': { contentType: 'audio/wav', magic: 'RIFF' },
  'raw-24khz-16bit-mono-pcm': { contentType: 'audio/pcm', magic: '' },
};

export const AZURE_VOICES = new Set([
  'zh-CN-YunxiNeural',
  'zh-CN-YunyangNeural',
  'zh-CN-YunyeNeural',
  'zh-CN-XiaochenNeural',
  'zh-CN-XiaohanNeural',
  'zh-CN-XiaoxiaoNeural',
  'en-US-AvaMultilingualNeural',
  'en-US-JennyNeural',
]);

export interface AzureSpeechBehaviour {
  key: string;
  /** Set: every synthesis answers this instead. */
  failWith?: { status: number; body: string };
}

/** What the mock read of one synthesis request. */
export interface AzureSpeechRequest {
  path: string;
  headers: IncomingMessage['headers'];
  ssml: string;
  /** Set when the SSML was read. */
  speak?: XmlElement;
  voice?: string;
  lang?: string;
  rate?: string;
  role?: string;
  text?: string;
}

export type AzureSpeechMock = ListeningMock<AzureSpeechBehaviour, AzureSpeechRequest>;

const defaults = (): AzureSpeechBehaviour => ({ key: 'azure-speech-key-5e2b7d' });

/** The audio the mock makes for a voice and a text, in a format. */
export function mockAudio(format: string, voice: string, text: string): Buffer {
  return Buffer.from(`${FORMATS[format]?.magic ?? ''}|${voice}|${text}`, 'utf8');
}

export async function startAzureSpeechMock(): Promise<AzureSpeechMock> {
  const state = { behaviour: defaults(), received: [] as AzureSpeechRequest[] };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const ssml = Buffer.concat(chunks).toString('utf8');
    const received: AzureSpeechRequest = { path: request.url ?? '/', headers: request.headers, ssml };
    state.received.push(received);
    const refuse = (status: number, body = '') => {
      response.writeHead(status, body ? { 'content-type': 'application/json' } : {});
      response.end(body);
    };
    if (request.method !== 'POST' || received.path !== '/cognitiveservices/v1') return refuse(404);
    if (request.headers['ocp-apim-subscription-key'] !== state.behaviour.key) {
      return sendJson(response, 401, {
        error: {
          code: '401',
          message: 'Access denied due to invalid subscription key or wrong API endpoint.',
        },
      });
    }
    if (state.behaviour.failWith) return refuse(state.behaviour.failWith.status, state.behaviour.failWith.body);
    const format = FORMATS[String(request.headers['x-microsoft-outputformat'])];
    if (request.headers['content-type'] !== 'application/ssml+xml' || !format || !request.headers['user-agent']) {
      return refuse(400);
    }
    try {
      const speak = parseXml(ssml);
      if (speak.name !== 'speak' || speak.attributes.version !== '1.0' || !speak.attributes['xml:lang']) {
        return refuse(400);
      }
      if (speak.attributes.xmlns !== 'http://www.w3.org/2001/10/synthesis') return refuse(400);
      const voice = findElement(speak, 'voice');
      if (!voice?.attributes.name || !AZURE_VOICES.has(voice.attributes.name)) return refuse(400);
      const expressAs = findElement(voice, 'mstts:express-as');
      if (expressAs && speak.attributes['xmlns:mstts'] !== 'https://www.w3.org/2001/mstts') return refuse(400);
      Object.assign(received, {
        speak,
        voice: voice.attributes.name,
        lang: speak.attributes['xml:lang'],
        rate: findElement(voice, 'prosody')?.attributes.rate,
        role: expressAs?.attributes.role,
        text: textOf(voice),
      });
      const audio = mockAudio(
        String(request.headers['x-microsoft-outputformat']),
        voice.attributes.name,
        textOf(voice),
      );
      response.writeHead(200, { 'content-type': format.contentType, 'content-length': audio.length });
      response.end(audio);
    } catch {
      refuse(400);
    }
  });
  return listenMock(server, state, defaults);
}
