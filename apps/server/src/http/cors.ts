import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Cross-origin access for what browser clients call directly: the relay surfaces (a web chat app
 * calling /v1 with the user's key), the dashboard billing endpoints and the public price and model
 * lists and the OpenAPI document. Any origin, as the reference allows (reference §0). The relay and the dashboard are called
 * with a bearer key, never a cookie, so unlike the reference they do not allow credentials; the two
 * public lists keep the reference's credentials. The management API (/api/*, signed in by cookie)
 * is left same-origin.
 *
 * Runs once, on the server's request listener (server.ts), before the relay front and Fastify, so
 * both answer with the same headers: they are set on the response and Node merges them into whatever status
 * line and headers the handler writes later.
 */
const CROSS_ORIGIN_PREFIXES = [
  '/v1/',
  '/claude/',
  '/gemini/',
  '/recraftAI/',
  '/dashboard/',
  '/api/prices',
  '/api/available_model',
  // The API's description, for API tools in a page (Swagger UI, Redoc) served from another site.
  '/api/openapi.json',
  // MCP clients in a page (an inspector, a web chat) authenticate by the access token in the URL.
  '/mcp/',
];
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/** The public lists under /api, which keep the reference's `Access-Control-Allow-Credentials`. */
const CREDENTIALED_PREFIXES = ['/api/prices', '/api/available_model'];

function crossOriginPath(url: string): boolean {
  for (const prefix of CROSS_ORIGIN_PREFIXES) if (url.startsWith(prefix)) return true;
  return url === '/v1';
}

/**
 * Adds the CORS headers a cross-origin request to these paths needs; answers a preflight itself.
 * Returns true when the request has been answered.
 */
export function applyCors(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  const url = request.url ?? '';
  if (!origin || !crossOriginPath(url)) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  if (CREDENTIALED_PREFIXES.some((prefix) => url.startsWith(prefix))) {
    response.setHeader('Access-Control-Allow-Credentials', 'true');
  }
  response.setHeader('Vary', 'Origin');
  // Clients read the request id to report problems.
  response.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, X-Oneapi-Request-Id, Retry-After');
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
  // Every header is allowed: echoing the requested list also works where `*` is not honoured
  // (the credentialed lists).
  response.setHeader('Access-Control-Allow-Headers', request.headers['access-control-request-headers'] ?? '*');
  response.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  response.writeHead(204);
  response.end();
  return true;
}
