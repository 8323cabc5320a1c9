import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';
import { analyticsSnippet } from './analytics-code.js';
import { sendError } from './errors.js';
import { consoleContentSecurityPolicy, scriptHash } from './security-headers.js';

/** Paths that belong to the APIs: an unknown one is a JSON 404, never the console page. */
const API_PREFIXES = [
  '/api/',
  '/v1/',
  '/claude/',
  '/gemini/',
  '/recraftAI/',
  '/mj/',
  '/mj-fast/',
  '/mj-turbo/',
  '/mj-relax/',
  '/suno/',
  '/kling/',
];

function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return API_PREFIXES.some((prefix) => path === prefix.slice(0, -1) || path.startsWith(prefix));
}

/** The folder of the build's content-hashed files (Vite's `assets`): immutable, cached for good. */
const HASHED_ASSETS = 'assets';

/**
 * The request paths of the console's content-hashed files (`<base path>assets/index-B5MQOGWJ.js`…),
 * read once: the build does not change while the server runs. Empty when the console is not built.
 */
export function hashedAssetPaths(directory: string, basePath: string): Set<string> {
  const folder = join(directory, HASHED_ASSETS);
  if (!existsSync(folder)) return new Set();
  const names = readdirSync(folder, { recursive: true, encoding: 'utf8' });
  return new Set(
    names
      .filter((name) => statSync(join(folder, name)).isFile())
      .map((name) => `${basePath}${HASHED_ASSETS}/${name.split(sep).join('/')}`),
  );
}

/**
 * Serves the built console under BASE_PATH. Client-side routes load on refresh because any other
 * GET under the base path answers with index.html, into which the base path is written.
 */
export async function installConsole(
  app: FastifyInstance,
  options: {
    directory: string;
    basePath: string;
    version: string;
    /** The AnalyticsCode setting, read for each page (it may change while the server runs). */
    analyticsCode?: () => string;
  },
): Promise<void> {
  const indexFile = join(options.directory, 'index.html');
  const built = existsSync(indexFile);
  // The one inline script of the page: the policy lets it run by its hash, and no other.
  // The version lets an open console see that the server it came from was updated (SiteBootstrap).
  const literal = (value: string) => JSON.stringify(value).replaceAll('<', '\\u003c');
  const baseScript = `window.__ONE_HUB_BASE__=${literal(options.basePath)};window.__ONE_HUB_VERSION__=${literal(options.version)}`;
  const indexHtml = built
    ? readFileSync(indexFile, 'utf8').replace(
        '<head>',
        `<head>\n    <base href="${options.basePath}" />\n    <script>${baseScript}</script>`,
      )
    : '';
  const baseHash = scriptHash(baseScript);
  const policy = consoleContentSecurityPolicy([baseHash]);
  // The page with the analytics scripts and the policy that lets them run, remade when the setting changes.
  let page = { code: '', html: indexHtml, policy };
  const currentPage = () => {
    const code = options.analyticsCode?.() ?? '';
    if (code !== page.code) {
      const snippet = analyticsSnippet(code);
      page = {
        code,
        html: snippet.html ? indexHtml.replace('</body>', `${snippet.html}\n  </body>`) : indexHtml,
        policy: consoleContentSecurityPolicy([baseHash, ...snippet.scriptHashes], snippet.origins),
      };
    }
    return page;
  };

  const sendIndex = (reply: FastifyReply) => {
    const { html, policy: pagePolicy } = currentPage();
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pagePolicy)
      .type('text/html; charset=utf-8')
      .send(html);
  };

  if (built) {
    await app.register(fastifyStatic, {
      root: options.directory,
      prefix: options.basePath,
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders: (response, path) => {
        const hashedAsset = path.includes(join(HASHED_ASSETS, ''));
        response.setHeader('cache-control', hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
        response.setHeader('content-security-policy', policy);
      },
    });
    app.get(options.basePath, (_request, reply) => sendIndex(reply));
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (built && wantsPage && request.url.startsWith(options.basePath) && !isApiPath(request.url)) {
      return sendIndex(reply);
    }
    const path = request.url.split('?')[0];
    const message = isApiPath(request.url)
      ? `no such API path: ${request.method} ${path}`
      : `not found: ${request.method} ${path}${built ? '' : ' (the console is not built; run npm run build)'}`;
    return sendError(AppError.notFound(message), request, reply);
  });
}
