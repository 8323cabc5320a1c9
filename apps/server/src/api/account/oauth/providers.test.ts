import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, findLeaks, type SignInTestApp, startSignInTestApp } from '../../../../test/api/account/app.js';
import { type ProviderMocks, startProviderMocks } from '../../../../test/api/account/mocks.js';
import { availableDialects } from '../../../../test/databases.js';

describe.each(availableDialects)('OIDC, Lark and WeChat sign-in on %s', (dialect) => {
  let t: SignInTestApp;
  let mocks: ProviderMocks;

  beforeAll(async () => {
    mocks = await startProviderMocks();
    t = await startSignInTestApp(dialect, mocks.upstreams);
    await t.setOptions(mocks.options());
  });
  afterAll(async () => {
    await t?.close();
    await mocks?.server.close();
  });

  /** Starts an OIDC sign-in like the console: the endpoint gives the URL, its state and nonce. */
  async function startOidc() {
    const response = await t.get('/api/oauth/endpoint');
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().data as string);
    return {
      url,
      cookie: cookiesFrom(response),
      state: url.searchParams.get('state') ?? '',
      nonce: url.searchParams.get('nonce') ?? '',
    };
  }
  async function oidcCallback(claims: (nonce: string) => Record<string, unknown>, signWith?: 'issuer' | 'stranger') {
    const { cookie, state, nonce } = await startOidc();
    const code = mocks.oidc.codeFor(claims(nonce), signWith);
    return t.get(`/api/oauth/oidc?code=${code}&state=${state}`, cookie);
  }
  const user = (username: string) => t.services.userRepository.findByUsername(username);

  it('builds the provider login URL from discovery with state, nonce, scopes and redirect', async () => {
    const { url, state, nonce } = await startOidc();
    expect(`${url.origin}${url.pathname}`).toBe(`${mocks.oidc.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: mocks.oidc.clientId,
      redirect_uri: 'https://hub.example.com/oauth/oidc',
      scope: 'openid email profile',
    });
    expect(state).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(nonce.length).toBe(32);
  });

  it('signs in with a valid ID token, registering the username claim, then finds the user by sub', async () => {
    const claims = (nonce: string) =>
      mocks.oidc.claims('sub-1', { nonce, preferred_username: 'ssouser', email: 'sso@example.com', name: 'SSO User' });
    const first = await oidcCallback(claims);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ username: 'ssouser', display_name: 'SSO User' });
    expect(await user('ssouser')).toMatchObject({ oidc_id: 'sub-1', email: 'sso@example.com' });
    const exchange = mocks.server.received.find((call) => call.path === '/oidc/token');
    expect(exchange?.body).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: 'https://hub.example.com/oauth/oidc',
    });
    const again = await oidcCallback((nonce) => mocks.oidc.claims('sub-1', { nonce, preferred_username: 'renamed' }));
    expect(again.json().data.id).toBe(first.json().data.id);
  });

  it('never links an existing user by the username claim, common user or administrator', async () => {
    await t.post('/api/user/register', { username: 'plainuser', password: 'password-123' });
    const prepared = await user('plainuser');
    const separate = await oidcCallback((nonce) =>
      mocks.oidc.claims('sub-2', { nonce, preferred_username: 'plainuser' }),
    );
    expect(separate.statusCode).toBe(200);
    expect(separate.json().data.id).not.toBe(prepared?.id);
    expect(separate.json().data.username).toMatch(/^oidc_\d+$/);
    expect((await user('plainuser'))?.oidc_id).toBe('');
    const notRoot = await oidcCallback((nonce) => mocks.oidc.claims('sub-3', { nonce, preferred_username: 'root' }));
    expect(notRoot.statusCode).toBe(200);
    expect(notRoot.json().data).toMatchObject({ role: 1 });
    expect(notRoot.json().data.username).toMatch(/^oidc_\d+$/);
    expect((await user('root'))?.oidc_id).toBe('');
  });

  it('reads the username from userinfo when the ID token lacks the claim', async () => {
    const response = await oidcCallback((nonce) => mocks.oidc.claims('sub-4', { nonce }));
    expect(response.json().data.username).toBe('infouser');
  });

  it.each([
    ['a bad signature', (nonce: string) => mocks.oidc.claims('sub-9', { nonce }), 'stranger' as const, 'signature'],
    [
      'a wrong audience',
      (nonce: string) => mocks.oidc.claims('sub-9', { nonce, aud: 'other-client' }),
      undefined,
      'another client',
    ],
    ['a wrong nonce', () => mocks.oidc.claims('sub-9', { nonce: 'replayed' }), undefined, 'nonce'],
    [
      'an expiry in the past',
      (nonce: string) => mocks.oidc.claims('sub-9', { nonce, exp: 1_000_000 }),
      undefined,
      'expired',
    ],
    [
      'another issuer',
      (nonce: string) => mocks.oidc.claims('sub-9', { nonce, iss: 'https://evil.example' }),
      undefined,
      'issuer',
    ],
  ])('answers 400 and signs nobody in for %s', async (_name, claims, signWith, message) => {
    const before = await t.services.userRepository.count();
    const response = await oidcCallback(claims, signWith);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();
    expect(await t.services.userRepository.count()).toBe(before);
  });

  it('checks the nonce of an OIDC sign-in started at /api/oauth/state, as the console-built URL must carry it', async () => {
    async function fromState(claims: (nonce: string) => Record<string, unknown>) {
      const issued = await t.get('/api/oauth/state');
      const nonce = String(issued.json().nonce ?? '');
      const code = mocks.oidc.codeFor(claims(nonce));
      return t.get(`/api/oauth/oidc?code=${code}&state=${issued.json().data}`, cookiesFrom(issued));
    }
    const before = await t.services.userRepository.count();
    const missing = await fromState(() => mocks.oidc.claims('sub-state-1'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('nonce');
    const wrong = await fromState(() => mocks.oidc.claims('sub-state-1', { nonce: 'replayed' }));
    expect(wrong.statusCode).toBe(400);
    expect(await t.services.userRepository.count()).toBe(before);
    const right = await fromState((nonce) => mocks.oidc.claims('sub-state-1', { nonce }));
    expect(right.statusCode).toBe(200);
  });

  it('sends a PKCE S256 challenge with the login URL and its verifier with the code exchange', async () => {
    const { url, cookie, state, nonce } = await startOidc();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const code = mocks.oidc.codeFor(mocks.oidc.claims('sub-pkce', { nonce }));
    expect((await t.get(`/api/oauth/oidc?code=${code}&state=${state}`, cookie)).statusCode).toBe(200);
    const exchange = mocks.server.received.filter((call) => call.path === '/oidc/token').at(-1);
    const verifier = String(((exchange?.body ?? {}) as Record<string, unknown>).code_verifier ?? '');
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(url.searchParams.get('code_challenge'));
  });

  it('answers 400 for a code the provider rejects and 403 for a foreign state', async () => {
    const { cookie, state } = await startOidc();
    expect((await t.get(`/api/oauth/oidc?code=unknown&state=${state}`, cookie)).statusCode).toBe(400);
    expect((await t.get('/api/oauth/oidc?code=unknown&state=abcdefabcdef', cookie)).statusCode).toBe(403);
  });

  it('signs in with Lark, registering lark_<n>, and binds Lark to a signed-in user', async () => {
    async function larkCallback(openId: string, cookie?: string) {
      const issued = await t.get('/api/oauth/state', cookie);
      const code = mocks.lark.codeFor({ open_id: openId, name: 'Feishu Person', email: 'lark@example.com' });
      return t.get(`/api/oauth/lark?code=${code}&state=${issued.json().data}`, cookiesFrom(issued, cookie));
    }
    const first = await larkCallback('ou_first');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ display_name: 'Feishu Person' });
    expect(first.json().data.username).toMatch(/^lark_\d+$/);
    expect((await user(first.json().data.username))?.lark_id).toBe('ou_first');
    expect((await larkCallback('ou_first')).json().data.id).toBe(first.json().data.id);

    await t.post('/api/user/register', { username: 'larkbinder', password: 'password-123' });
    const cookie = cookiesFrom(await t.post('/api/user/login', { username: 'larkbinder', password: 'password-123' }));
    expect((await larkCallback('ou_second', cookie)).json().message).toBe('bind');
    expect((await user('larkbinder'))?.lark_id).toBe('ou_second');
    const lark = mocks.server.received.find((call) => call.path.endsWith('/app_access_token/internal'));
    expect(lark?.body).toMatchObject({ app_id: mocks.lark.appId, app_secret: mocks.lark.appSecret });
  });

  it('signs in with a WeChat code, binds one to a signed-in user and unbinds it', async () => {
    const response = await t.get(`/api/oauth/wechat?code=${mocks.wechat.codeFor('wx-open-1')}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ display_name: 'WeChat User' });
    expect(response.json().data.username).toMatch(/^wechat_\d+$/);
    expect((await t.get('/api/oauth/wechat?code=000000')).statusCode).toBe(400);

    await t.post('/api/user/register', { username: 'wxbinder', password: 'password-123' });
    const cookie = cookiesFrom(await t.post('/api/user/login', { username: 'wxbinder', password: 'password-123' }));
    const taken = await t.get(`/api/oauth/wechat/bind?code=${mocks.wechat.codeFor('wx-open-1')}`, cookie);
    expect(taken.statusCode).toBe(409);
    const bound = await t.get(`/api/oauth/wechat/bind?code=${mocks.wechat.codeFor('wx-open-2')}`, cookie);
    expect(bound.statusCode).toBe(200);
    expect((await user('wxbinder'))?.wechat_id).toBe('wx-open-2');
    expect((await t.post('/api/user/unbind', { type: 'wechat' }, cookie)).statusCode).toBe(200);
    expect((await user('wxbinder'))?.wechat_id).toBe('');
    expect((await t.get(`/api/oauth/wechat/bind?code=${mocks.wechat.codeFor('wx-open-3')}`)).statusCode).toBe(401);
  });

  it('never returns a client secret, server token or provider-issued token', async () => {
    expect(mocks.oidc.issued.length).toBeGreaterThan(0);
    expect(mocks.lark.issued.length).toBeGreaterThan(0);
    expect(findLeaks(t.responses, mocks.secrets())).toEqual([]);
  });
});
