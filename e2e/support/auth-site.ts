/// <reference lib="dom" />
/**
 * The site the auth browser tests share: a server with every sign-in method turned on, a mail
 * catcher and a mock identity provider (OIDC and WeChat). Each test file calls `useAuthSite()`
 * once; the bindings below are live, set by its `beforeAll`.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type AdminApi, adminApi, apiCall } from './api.js';
import { launchBrowser, signInWithForm } from './browser.js';
import { type MailCatcher, smtpOptions, startMailCatcher } from './mail.js';
import { type RunningServer, startServer } from './server.js';

export const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
const OIDC_CLIENT_ID = 'one-hub-e2e';
export const WECHAT_CODE = '246810';
const desktop = { width: 1280, height: 860 };

// ---------------------------------------------------------------------------------------------
// A mock identity provider: OIDC discovery, authorize, token and JWKS, plus a WeChat server.

export interface OidcIdentity {
  sub: string;
  username: string;
  name: string;
}

export interface MockProvider {
  origin: string;
  /** Who the next sign-in at the authorize page is. */
  identity: OidcIdentity;
  close(): Promise<void>;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function signIdToken(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'e2e-key' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return new URLSearchParams(Buffer.concat(parts).toString('utf8'));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const QR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="210" height="210" viewBox="0 0 7 7" shape-rendering="crispEdges">
<rect width="7" height="7" fill="#fff"/><path d="M0 0h3v3H0zM4 0h3v3H4zM0 4h3v3H0zM4 4h1v1H4zM6 4h1v3H6zM4 6h1v1H4zM5 5h1v1H5z" fill="#111"/></svg>`;

async function startMockProvider(): Promise<MockProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e-key', use: 'sig', alg: 'RS256' };
  const pendingCodes = new Map<string, { nonce: string; identity: OidcIdentity }>();
  const mock: MockProvider = {
    origin: '',
    identity: { sub: 'oidc-subject-1', username: 'oidcuser', name: 'OIDC User' },
    close: async () => undefined,
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', mock.origin);
      switch (url.pathname) {
        case '/.well-known/openid-configuration':
          return sendJson(response, 200, {
            issuer: mock.origin,
            authorization_endpoint: `${mock.origin}/authorize`,
            token_endpoint: `${mock.origin}/token`,
            jwks_uri: `${mock.origin}/jwks`,
            token_endpoint_auth_methods_supported: ['client_secret_post'],
          });
        case '/authorize': {
          const code = randomBytes(8).toString('hex');
          pendingCodes.set(code, { nonce: url.searchParams.get('nonce') ?? '', identity: { ...mock.identity } });
          const back = new URL(url.searchParams.get('redirect_uri') ?? '');
          back.searchParams.set('code', code);
          back.searchParams.set('state', url.searchParams.get('state') ?? '');
          response.writeHead(302, { location: back.href });
          return response.end();
        }
        case '/token': {
          const form = await readForm(request);
          const pending = pendingCodes.get(form.get('code') ?? '');
          if (!pending) return sendJson(response, 400, { error: 'invalid_grant' });
          pendingCodes.delete(form.get('code') ?? '');
          const now = Math.floor(Date.now() / 1000);
          const idToken = signIdToken(privateKey, {
            iss: mock.origin,
            aud: OIDC_CLIENT_ID,
            sub: pending.identity.sub,
            preferred_username: pending.identity.username,
            name: pending.identity.name,
            nonce: pending.nonce,
            iat: now,
            exp: now + 300,
          });
          return sendJson(response, 200, { id_token: idToken, access_token: 'mock-access', token_type: 'Bearer' });
        }
        case '/jwks':
          return sendJson(response, 200, { keys: [jwk] });
        case '/api/wechat/user':
          return url.searchParams.get('code') === WECHAT_CODE
            ? sendJson(response, 200, { success: true, message: '', data: 'wechat-open-id-1' })
            : sendJson(response, 200, { success: false, message: 'the code is wrong or has expired' });
        case '/qr.svg':
          response.writeHead(200, { 'content-type': 'image/svg+xml' });
          return response.end(QR_SVG);
        default:
          response.writeHead(404);
          return response.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return mock;
}

// ---------------------------------------------------------------------------------------------

export let server: RunningServer;
let browser: Browser;
export let admin: AdminApi;
export let mail: MailCatcher;
export let provider: MockProvider;
const contexts: BrowserContext[] = [];

/** A fresh browser context (own cookies and storage) with a language and optionally dark mode. */
export async function openPage(
  options: { language?: string; dark?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? desktop,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript(
    ({ language, dark }) => {
      window.localStorage.setItem('appLanguage', language);
      if (dark) window.localStorage.setItem('theme', 'dark');
    },
    { language: options.language ?? 'en_US', dark: options.dark ?? false },
  );
  return page;
}

export const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent()) ?? '';

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await signInWithForm(page, server.origin, username, password);
  await page.getByTestId('avatar-menu').waitFor();
}

export const rootGet = <T>(path: string) => apiCall<T>(server.origin, 'GET', path, { token: ROOT_TOKEN });

/** Starts the site before the file's tests and stops it after them. */
export function useAuthSite(): void {
  beforeAll(async () => {
    mail = await startMailCatcher();
    provider = await startMockProvider();
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      CRITICAL_RATE_LIMIT: '1000',
    });
    admin = adminApi(server.origin, ROOT_TOKEN);
    const options: Array<[string, string]> = [
      ['ServerAddress', server.origin],
      ...smtpOptions(mail),
      ['EmailVerificationEnabled', 'true'],
      ['GitHubClientId', 'e2e-github-client'],
      ['GitHubClientSecret', 'e2e-github-secret'],
      ['GitHubOAuthEnabled', 'true'],
      ['OIDCClientId', OIDC_CLIENT_ID],
      ['OIDCClientSecret', 'e2e-oidc-secret'],
      ['OIDCIssuer', provider.origin],
      ['OIDCScopes', 'openid profile'],
      ['OIDCUsernameClaims', 'preferred_username'],
      ['OIDCAuthEnabled', 'true'],
      ['LarkClientId', 'cli_e2e_lark'],
      ['LarkClientSecret', 'e2e-lark-secret'],
      ['LarkAuthEnabled', 'true'],
      ['WeChatServerAddress', provider.origin],
      ['WeChatServerToken', 'e2e-wechat-token'],
      ['WeChatAccountQRCodeImageURL', `${provider.origin}/qr.svg`],
      ['WeChatAuthEnabled', 'true'],
    ];
    for (const [key, value] of options) await admin.setOption(key, value);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await provider?.close();
    await mail?.close();
  });
}
