import pino, { type Logger } from 'pino';
import { maskEmails } from './mail.js';

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

/** Writes to stdout unless given a destination (tests read the lines back). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}

export function maskUrlSecrets(url: string): string {
  return maskEmails(url)
    .replace(/([?&](?:key|token|access_token|code|state|turnstile)=)[^&]*/gi, '$1***')
    .replace(/sk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}

export type { Logger };
