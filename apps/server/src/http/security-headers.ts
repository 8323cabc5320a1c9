import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Cloudflare's Turnstile widget: its script, and the frame it draws the check in. */
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/** The `'sha256-…'` source that lets exactly this inline script run, and nothing else inline. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * The console's Content-Security-Policy. Scripts come only from this site (plus Turnstile), and an
 * inline script only when its hash is listed. Styles allow 'unsafe-inline': MUI (emotion) and
 * notistack (goober) write <style> tags at run time, and admin HTML may carry style attributes.
 * Images may come from any web address (logos, avatars, WeChat QR codes and chat images are set by
 * URL, and some operators serve them over plain http); frames likewise (a home or about page given
 * as a URL is shown in a frame); forms may post to any web address (payment gateways that take a
 * form post, several of which still run on http). Admin HTML carries no forms: it is sanitised.
 * The AnalyticsCode setting's scripts add their hashes and https origins (analytics-code.ts); an
 * analytics script may send its beacons to its own origin.
 */
export function consoleContentSecurityPolicy(
  inlineScriptHashes: string[] = [],
  analyticsOrigins: string[] = [],
): string {
  const connect = ["'self'", ...analyticsOrigins].join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${[...inlineScriptHashes, TURNSTILE_ORIGIN, ...analyticsOrigins].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    // Suno's songs and Kling's videos play from their CDNs (the async-task screen).
    "media-src 'self' https: http: blob:",
    `connect-src ${connect}`,
    "frame-src 'self' https: http:",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self' https: http:",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sent with the console's pages and files and with every /api answer. */
const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/**
 * The relay's surfaces answer API clients, not browsers; the relay front (http/relay-front.ts)
 * serves them and sets none of these. The other relay-like prefixes get none either.
 */
const RELAY_PREFIXES = ['/v1/', '/claude/', '/gemini/', '/dashboard/', '/mj/', '/suno/', '/kling/'];

export function installSecurityHeaders(app: FastifyInstance): void {
  // A callback hook: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const { url } = request.raw;
    if (!url || !RELAY_PREFIXES.some((prefix) => url.startsWith(prefix))) reply.headers(COMMON_HEADERS);
    done();
  });
}
