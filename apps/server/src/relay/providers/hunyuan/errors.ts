import { parseJson } from '@one-hub/contracts';
import { mappedErrorType } from '../error-types.js';
import { parseOpenAiError } from '../openai/adapter.js';
import type { UpstreamErrorInfo } from '../types.js';
import { isRecord } from '../values.js';

/**
 * Tencent Cloud API errors. The API answers HTTP 200 with `{"Response": {"Error": {"Code",
 * "Message"}, "RequestId"}}`; the code (`AuthFailure.SignatureFailure`, `LimitExceeded`…) says
 * what went wrong, and is mapped here to the HTTP status an OpenAI client expects. Hunyuan's
 * OpenAI-compatible endpoint (single API keys) answers OpenAI-style errors with real statuses.
 */

/** Code prefixes (the part before the first dot, or the whole code) by status. */
const STATUS_BY_CODE: Array<[RegExp, number]> = [
  // A clock off by more than five minutes: the gateway's problem, not the key's.
  [/^AuthFailure\.SignatureExpire$/, 500],
  [/^AuthFailure/, 401],
  [/^(UnauthorizedOperation|OperationDenied|FailedOperation\.(ServiceNotActivated|ServiceStop)$)/, 403],
  [/^UnsupportedOperation\.NonWhitelistAccount$/, 403],
  [/(Arrears|ResourcePackExhausted|ChargeResourceExhaust|LowBalance|InsufficientBalance)/, 402],
  [/^(LimitExceeded|RequestLimitExceeded|FailedOperation\.EngineServerLimitExceeded)/, 429],
  [/^(InvalidParameter|InvalidParameterValue|MissingParameter|UnknownParameter|UnsupportedOperation)/, 400],
  [/^ResourceNotFound/, 404],
  [/^FailedOperation\.EngineRequestTimeout$/, 504],
  [/^(InternalError|FailedOperation|ResourceUnavailable|ResourceInsufficient)/, 502],
];

export function statusOfCode(code: string): number {
  for (const [pattern, status] of STATUS_BY_CODE) if (pattern.test(code)) return status;
  return 502;
}

/** The `Response.Error` of a Tencent Cloud answer, when it is one. */
export function tencentError(value: unknown): { code: string; message: string } | undefined {
  const response = isRecord(value) && isRecord(value.Response) ? value.Response : undefined;
  const error = response && isRecord(response.Error) ? response.Error : undefined;
  if (!error) return undefined;
  const code = typeof error.Code === 'string' ? error.Code : 'UnknownError';
  const message = typeof error.Message === 'string' && error.Message ? error.Message : code;
  return { code, message };
}

/** The status a 2xx Tencent Cloud answer stands for when it carries `Response.Error`, else undefined. */
export function hunyuanErrorStatus(body: Buffer): number | undefined {
  // Cheap test first: most answers are successes and need no second parse here.
  if (!body.includes('"Error"')) return undefined;
  const error = tencentError(parseJson(body.toString('utf8')));
  return error ? statusOfCode(error.code) : undefined;
}

/** An error answer of either API, read into an OpenAI-style failure. */
export function parseHunyuanError(status: number, body: Buffer): UpstreamErrorInfo {
  const error = tencentError(parseJson(body.toString('utf8')));
  if (!error) return parseOpenAiError(status, body);
  // The code says more than the status (Tencent answers most errors with 200).
  const mapped = statusOfCode(error.code);
  return {
    status: mapped,
    message: `${error.message} (${error.code})`,
    type: mappedErrorType(mapped),
    code: error.code,
  };
}
