import type {
  AdapterContext,
  ChatAdapter,
  ChatCompletion,
  ChatRequest,
  StreamDecoder,
  UpstreamCall,
  UpstreamErrorInfo,
} from '../types.js';
import { GeminiStreamDecoder, parseGeminiAnswer, parseGeminiJson } from './answer.js';
import { isRecord, maskSecrets, num, str } from './common.js';
import {
  decodeOpenAiEndpointStream,
  openAiEndpointCall,
  parseOpenAiEndpointChat,
  usesOpenAiEndpoint,
} from './openai-endpoint.js';
import { geminiUrl, splitModel, toGeminiRequest, versionOf } from './request.js';

export * from './answer.js';
export * from './request.js';

/**
 * Google Gemini (AI Studio, `generativelanguage.googleapis.com`) behind the OpenAI chat shape.
 *
 * Request (`buildChat`):
 * - `POST {baseUrl}/{version}/models/{model}:generateContent`, or
 *   `:streamGenerateContent?alt=sse` for streams. `version` is the channel's `other` when it looks
 *   like an API version (`v1`, `v1beta`, `v1alpha`), else `v1beta`; a base URL that already ends
 *   in a version is used as it is. The key goes in the `x-goog-api-key` header, never the URL.
 * - A model suffix `#thinking` is stripped and turns thinking on (dynamic budget, thoughts shown).
 *   `reasoning_effort` sets `thinkingConfig.thinkingBudget` (minimal 512, low 1024, medium 8192,
 *   high 24576; `none` → 0) with `includeThoughts: true`.
 * - Safety: every category at `BLOCK_NONE`, unless the channel's plugin JSON has
 *   `safety_settings`: either one threshold for all categories (`"BLOCK_ONLY_HIGH"`), a map
 *   (`{"HARM_CATEGORY_HARASSMENT": "BLOCK_LOW_AND_ABOVE"}`) or Gemini's own list
 *   (`[{"category": …, "threshold": …}]`), sent as given.
 * - Built-in tools: a function tool named `googleSearch`, `codeExecution` or `urlContext` without
 *   parameters becomes Gemini's built-in tool of that name (`{"googleSearch": {}}`…).
 *
 * - The channel's plugin `code_execution: {enable: true}` adds the code-execution tool to every
 *   request; `use_openai_api: {enable: true}` sends chat to Google's OpenAI-compatible endpoint
 *   instead (openai-endpoint.ts). GeminiOpenThink (a setting) asks for the thoughts of the models
 *   it names (`includeThoughts: true`), unless the request turned thinking off.
 *
 * Answers: thought parts become `reasoning_content`, function calls `tool_calls` (with the part's
 * thought signature in `extra_content.google.thought_signature`, as Google's own OpenAI endpoint
 * returns it, so the next turn can send it back), code-execution parts and generated images
 * become Markdown in the content.
 */

// ---- errors ----

const ERROR_TYPES: Record<string, string> = {
  INVALID_ARGUMENT: 'invalid_request_error',
  FAILED_PRECONDITION: 'invalid_request_error',
  OUT_OF_RANGE: 'invalid_request_error',
  NOT_FOUND: 'invalid_request_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'authentication_error',
  RESOURCE_EXHAUSTED: 'rate_limit_error',
  INTERNAL: 'server_error',
  UNAVAILABLE: 'server_error',
  DEADLINE_EXCEEDED: 'server_error',
};

/**
 * Gemini `{error: {code, message, status, details}}` (or a one-element list of it, as the
 * non-SSE stream answers) → status, message (keys masked), OpenAI-style type, and the Gemini
 * status name as code. The message is kept verbatim otherwise: the relay disables a channel on
 * `INVALID_ARGUMENT` + "API key not valid", which stays the code and the text; such an answer
 * (or ErrorInfo reason `API_KEY_INVALID`) is typed `authentication_error`.
 */
export function parseGeminiError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status, message: maskSecrets(text.trim().slice(0, 500)) || `HTTP ${status}` };
  }
  const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = isRecord(envelope) ? envelope.error : undefined;
  if (!isRecord(error)) {
    const message = isRecord(envelope) && typeof envelope.message === 'string' ? envelope.message : text.trim();
    return { status, message: maskSecrets(message.slice(0, 500)) || `HTTP ${status}` };
  }
  const code = str(error.status) ?? '';
  const info: UpstreamErrorInfo = {
    status: status || num(error.code) || 500,
    message: maskSecrets(str(error.message) ?? (JSON.stringify(error) || `HTTP ${status}`)),
  };
  let type = ERROR_TYPES[code] ?? (status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : undefined);
  const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
  // Told by the structured reason only: the message text may repeat the client's input.
  const keyInvalid = details.some((detail) => detail.reason === 'API_KEY_INVALID');
  if (keyInvalid) type = 'authentication_error';
  if (type) info.type = type;
  if (code) info.code = code;
  return info;
}

export const geminiAdapter: ChatAdapter = {
  format: 'gemini',
  // AI Studio reads only its own uploaded files by URI: web images go inline.
  inlineImages: true,
  buildChat(request: ChatRequest, context: AdapterContext): UpstreamCall {
    if (usesOpenAiEndpoint(context)) return openAiEndpointCall(request, context);
    const { model, thinking } = splitModel(context.upstreamModel);
    const version = versionOf(context.baseUrl, context.other);
    const body = toGeminiRequest(request, model, thinking, context.plugin, version, context.settings);
    return {
      url: geminiUrl(context.baseUrl, context.other, model, context.stream),
      headers: { 'content-type': 'application/json', ...context.headers, 'x-goog-api-key': context.key },
      body: JSON.stringify(body),
    };
  },
  parseChat(body: Buffer, context: AdapterContext): ChatCompletion {
    if (usesOpenAiEndpoint(context)) return parseOpenAiEndpointChat(body, context);
    return parseGeminiAnswer(parseGeminiJson(body.toString('utf8'), 'answer'), context);
  },
  decodeStream(context: AdapterContext): StreamDecoder {
    if (usesOpenAiEndpoint(context)) return decodeOpenAiEndpointStream(context);
    return new GeminiStreamDecoder(context);
  },
  parseError: parseGeminiError,
};
