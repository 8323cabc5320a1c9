import { mappedErrorType } from '../error-types.js';
import type { ChatAdapter, UpstreamErrorInfo } from '../types.js';
import { cozeFailure, cozeStreamDecoder, gatherCozeChat } from './answer.js';
import { cozeChatCall } from './request.js';

/**
 * Coze (channel type `coze`): chat with a bot through the Chat API v3 (request.ts), its event stream
 * read as OpenAI chunks (answer.ts). Clients that do not stream get the stream gathered into one
 * answer. Errors are `{code, msg}` (code 0 is success), sometimes sent with HTTP 200; their codes
 * are mapped to the statuses an OpenAI client expects.
 */

/** Coze's error codes by the HTTP status they stand for; other 4xxx codes are the request's, 5xxx Coze's. */
const STATUS_BY_CODE: Record<number, number> = {
  // The token is invalid or expired; it lacks the permission (chat, or this bot).
  4100: 401,
  4101: 403,
  // Too many requests.
  4013: 429,
  // The account's balance is used up.
  4019: 402,
  // The bot does not exist, or is not published as an API.
  4200: 404,
  4015: 404,
};

function statusOfCode(code: number): number {
  const known = STATUS_BY_CODE[code];
  if (known) return known;
  if (code >= 4000 && code < 5000) return 400;
  return 502;
}

export function parseCozeError(status: number, body: Buffer): UpstreamErrorInfo {
  const failure = cozeFailure(body);
  if (failure) {
    const mapped = statusOfCode(failure.code);
    return {
      status: mapped,
      message: `${failure.message} (Coze code ${failure.code})`,
      type: mappedErrorType(mapped),
      code: String(failure.code),
    };
  }
  const text = body.toString('utf8').trim();
  return { status, message: text.slice(0, 500) || `HTTP ${status}` };
}

export const cozeAdapter: ChatAdapter = {
  format: 'coze',
  buildChat: cozeChatCall,
  errorStatus(body) {
    const failure = cozeFailure(body);
    return failure ? statusOfCode(failure.code) : undefined;
  },
  parseChat: gatherCozeChat,
  decodeStream: cozeStreamDecoder,
  parseError: parseCozeError,
};
