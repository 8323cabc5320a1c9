import { providerType } from '../../src/domain/channel-types/registry.js';
import {
  type Answer,
  type Call,
  type ErrorKind,
  imageMatches,
  isRecord,
  type Json,
  json,
  list,
  namesOf,
  type ProviderEntry,
  type Reply,
  type Responder,
  sse,
  type TokenCounts,
} from './scenario-mock.js';

/**
 * The Gemini API (channel type `gemini`) as generativelanguage.googleapis.com answers
 * `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`, the key in
 * `x-goog-api-key` (or `?key=`). Images are `inlineData {mimeType, data}` parts, tools
 * `functionDeclarations`, a function call comes whole (never in pieces). Usage: `promptTokenCount`
 * includes cached content (`cachedContentTokenCount`) and every modality (`promptTokensDetails`),
 * `candidatesTokenCount` leaves out thoughts (`thoughtsTokenCount`). Every stream chunk carries
 * `usageMetadata`; before the last it holds the prompt counts only. A bad key is a 400
 * `INVALID_ARGUMENT` with reason `API_KEY_INVALID`. The answer builders are shared with Vertex.
 */

const KEY = 'AIzaContractMock0123456789abcdefghijkl';

export function geminiUsage(counts: TokenCounts, final = true): Json {
  const prompt = counts.input + counts.cacheRead + counts.audioIn;
  const promptTokensDetails = [
    { modality: 'TEXT', tokenCount: counts.input + counts.cacheRead },
    ...(counts.audioIn > 0 ? [{ modality: 'AUDIO', tokenCount: counts.audioIn }] : []),
  ];
  if (!final) return { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails };
  const candidates = counts.output + counts.audioOut;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + counts.reasoning,
    ...(counts.cacheRead > 0 ? { cachedContentTokenCount: counts.cacheRead } : {}),
    ...(counts.reasoning > 0 ? { thoughtsTokenCount: counts.reasoning } : {}),
    promptTokensDetails,
    ...(counts.cacheRead > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: counts.cacheRead }] } : {}),
    candidatesTokensDetails: [
      { modality: 'TEXT', tokenCount: counts.output },
      ...(counts.audioOut > 0 ? [{ modality: 'AUDIO', tokenCount: counts.audioOut }] : []),
    ],
  };
}

export const googleError = (code: number, status: string, message: string, details?: Json[]): Reply =>
  json(code, { error: { code, message, status, ...(details ? { details } : {}) } });

export function googleRateError(): Reply {
  return googleError(
    429,
    'RESOURCE_EXHAUSTED',
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
    [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '41s' }],
  );
}

export const googleServerError = (): Reply =>
  googleError(
    500,
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  );

function countImages(contents: unknown): number {
  let count = 0;
  for (const content of list(contents)) {
    if (!isRecord(content)) continue;
    for (const part of list(content.parts)) {
      if (!isRecord(part)) continue;
      const inline = part.inlineData ?? part.inline_data;
      if (isRecord(inline) && imageMatches(inline.mimeType ?? inline.mime_type, inline.data)) count++;
      else if (isRecord(part.fileData)) count++;
    }
  }
  return count;
}

/** The call a `generateContent` body asks for. */
export function readGeminiBody(body: Json | undefined, model: string, stream: boolean, api: string): Call | Reply {
  if (!body || !Array.isArray(body.contents) || body.contents.length === 0) {
    return googleError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified\n');
  }
  const declarations = list(body.tools).flatMap((tool) =>
    isRecord(tool) ? list(tool.functionDeclarations ?? tool.function_declarations) : [],
  );
  const tools = namesOf(declarations, (declaration) => declaration.name);
  return { model, stream, tools, images: countImages(body.contents), api };
}

const candidate = (parts: Json[], finish?: string) => ({
  content: { parts, role: 'model' },
  ...(finish ? { finishReason: finish } : {}),
  index: 0,
});

const partsOf = (answer: Answer): Json[] =>
  answer.tool ? [{ functionCall: { name: answer.tool.name, args: answer.tool.arguments } }] : [{ text: answer.text }];

export function geminiAnswer(answer: Answer, envelope: Json = {}): Json {
  return {
    candidates: [candidate(partsOf(answer), 'STOP')],
    usageMetadata: geminiUsage(answer.usage),
    modelVersion: answer.model,
    responseId: 'contractMockResponse',
    ...envelope,
  };
}

/** Stream chunks: one per text piece (or one function call), the last with the finish and full usage. */
export function geminiChunks(answer: Answer, envelope: Json = {}) {
  const parts = answer.tool ? [partsOf(answer)] : answer.pieces.map((text) => [{ text }]);
  const pieces = parts.map((eventParts, index) => {
    const last = index === parts.length - 1;
    return sse({
      candidates: [candidate(eventParts, last ? 'STOP' : undefined)],
      usageMetadata: geminiUsage(answer.usage, last),
      modelVersion: answer.model,
      responseId: 'contractMockResponse',
      ...envelope,
    });
  });
  return { contentType: 'text/event-stream', head: [], pieces, tail: [] };
}

function geminiError(kind: ErrorKind): Reply {
  if (kind === 'auth') {
    return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'generativelanguage.googleapis.com' },
      },
    ]);
  }
  return kind === 'rate' ? googleRateError() : googleServerError();
}

const MODEL_PATH = /^\/(v1|v1beta)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function geminiResponder(): Responder {
  return {
    read(request) {
      const target = MODEL_PATH.exec(request.path);
      if (!target || request.method !== 'POST') {
        return googleError(404, 'NOT_FOUND', `The requested URL ${request.path} was not found on this server.`);
      }
      const key = request.headers['x-goog-api-key'] ?? request.query.get('key');
      if (key !== KEY) return geminiError('auth');
      const stream = target[3] === 'streamGenerateContent';
      // Without alt=sse the stream is one JSON array; the relay must ask for events.
      if (stream && request.query.get('alt') !== 'sse') {
        return googleError(400, 'INVALID_ARGUMENT', 'contract mock: streams are served as server-sent events only');
      }
      return readGeminiBody(request.body, decodeURIComponent(target[2] ?? ''), stream, 'generateContent');
    },
    whole: (answer) => geminiAnswer(answer),
    stream: (answer) => geminiChunks(answer),
    error: (kind) => geminiError(kind),
  };
}

export const geminiProvider: ProviderEntry = {
  name: 'Gemini',
  type: providerType('gemini'),
  model: 'gemini-2.5-flash',
  setup: () => ({ responder: geminiResponder(), channel: (url) => ({ key: KEY, base_url: url }) }),
  // Google answers a bad API key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID); the fault is
  // the channel's, so the client gets 502 like every other provider's bad key (upstream-errors.ts).
  authStatus: 502,
  usage: {
    cacheWrite:
      'Gemini creates caches through the cachedContents API (billed per storage hour); generateContent reports no cache writes',
    reasoning: true,
    audio: true,
  },
};
