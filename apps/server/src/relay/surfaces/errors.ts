import type { ErrorRenderer, ErrorRequest } from '../../http/errors.js';
import type { AppError, ErrorCode } from '../../platform/errors.js';
import { anthropicBinding, geminiBinding } from './native.js';

const openAiType: Partial<Record<ErrorCode, string>> = {
  bad_request: 'invalid_request_error',
  not_found: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  unauthorized: 'authentication_error',
  forbidden: 'permission_error',
  rate_limited: 'rate_limit_error',
  upstream_error: 'upstream_error',
  unavailable: 'one_hub_error',
  internal: 'one_hub_error',
};

/** OpenAI's error envelope, with the request id so an operator can find the request in the logs. */
export function openAiErrorBody(error: AppError, request: ErrorRequest) {
  return {
    error: {
      message: `${error.message} (request id: ${request.id})`,
      type: error.details.type ?? openAiType[error.code] ?? 'one_hub_error',
      param: error.details.param ?? null,
      code: error.details.code ?? null,
    },
  };
}

/** Each surface's error format; every relay route names one (relay/routes.ts). */
export const surfaceErrors = {
  openAi: ((error, request) => openAiErrorBody(error, request)) satisfies ErrorRenderer,
  /** OpenAI's envelope; `detail` too, for clients of the reference's rerank format. */
  rerank: ((error, request) => {
    const body = openAiErrorBody(error, request);
    return { ...body, detail: body.error.message };
  }) satisfies ErrorRenderer,
  anthropic: ((error, request) =>
    anthropicBinding.translator.errorBody(
      error.status,
      `${error.message} (request id: ${request.id})`,
    )) satisfies ErrorRenderer,
  gemini: ((error, request) =>
    geminiBinding.translator.errorBody(
      error.status,
      `${error.message} (request id: ${request.id})`,
    )) satisfies ErrorRenderer,
};
