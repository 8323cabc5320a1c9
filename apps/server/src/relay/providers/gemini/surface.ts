import type { SurfaceTranslator } from '../types.js';
import { chatToGemini, usageToGemini } from './surface-answer.js';
import { geminiToChat } from './surface-request.js';
import { GeminiStreamEncoder } from './surface-stream.js';

/**
 * Gemini clients (`@google/genai`, REST `generateContent` / `streamGenerateContent?alt=sse`) in
 * front of any upstream.
 *
 * - `toChat`: `contents` → messages (model → assistant; function calls get ids `call_<n>` unless
 *   they carry one, and each `functionResponse` becomes a tool message paired with the oldest
 *   unanswered call of the same name, or the call with its id); `systemInstruction` → a system
 *   message; `inlineData` → image_url / input_audio / file data URLs; `fileData` → image_url (or a
 *   file reference for non-images); `functionDeclarations` → tools, built-in tools
 *   (`googleSearch`, `codeExecution`, `urlContext`) → parameterless pseudo-functions of that name;
 *   `toolConfig` → tool_choice; `generationConfig` → sampling fields; `thinkingBudget` →
 *   the nearest reasoning_effort; `responseMimeType`/`responseSchema` → response_format.
 *   camelCase and snake_case field names are both accepted, as Google's API does. What the
 *   canonical shape cannot carry (the exact thinking config, safety settings, a file's MIME type,
 *   thought signatures) rides along in memory only, for a Gemini upstream (see common.ts).
 *   `stream` is left to the caller, which knows the endpoint.
 * - `fromChat` / `encodeStream`: the answer as `GenerateContentResponse`s.
 */

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's canonical status name for an HTTP code (529 "overloaded" reads as UNAVAILABLE). */
export function statusName(code: number): string {
  return (
    STATUS_NAMES[code] ??
    (code === 529 ? 'UNAVAILABLE' : code >= 400 && code < 500 ? 'FAILED_PRECONDITION' : 'INTERNAL')
  );
}

export const geminiSurface: SurfaceTranslator = {
  toChat: geminiToChat,
  fromChat: chatToGemini,
  encodeStream: (requestedModel) => new GeminiStreamEncoder(requestedModel),
  errorBody: (status, message) => ({ error: { code: status, message, status: statusName(status) } }),
};

export { chatToGemini, geminiToChat, usageToGemini };
