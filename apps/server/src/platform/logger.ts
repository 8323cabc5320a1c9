import pino, { type Logger } from 'pino';

/**
 * Paths redacted from every log line. Request bodies are never logged, but a route that logs an
 * object holding credentials still must not leak them.
 */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-goog-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.key',
  '*.access_token',
  '*.accessToken',
];

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      // Query strings may hold keys (`?key=` is how the Gemini SDK authenticates).
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: maskUrlSecrets(request.url),
        ip: request.ip,
      }),
    },
  });
}

export function maskUrlSecrets(url: string): string {
  return url
    .replace(/([?&](?:key|token|access_token|code|state|turnstile)=)[^&]*/gi, '$1***')
    .replace(/sk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}

export type { Logger };
