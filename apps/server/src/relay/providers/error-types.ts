/** OpenAI-style error types (the relay disables channels on some) for the statuses they all share. */
export function commonErrorType(status: number): string | undefined {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'insufficient_quota';
    case 403:
      return 'permission_error';
    case 429:
      return 'rate_limit_error';
    default:
      return undefined;
  }
}

/** The type of a status an upstream's own error code was mapped to: 404 is a bad request, others an API error. */
export function mappedErrorType(status: number): string {
  return commonErrorType(status) ?? (status === 404 ? 'invalid_request_error' : 'api_error');
}
