import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, findLeaks, type SignInTestApp, startSignInTestApp } from '../../../../test/api/account/app.js';
import { type ProviderMocks, startProviderMocks } from '../../../../test/api/account/mocks.js';
import type { GitHubAccount } from '../../../../test/api/account/providers.js';
import { availableDialects } from '../../../../test/databases.js';

describe.each(availableDialects)('OAuth state and GitHub sign-in on %s', (dialect) => {
  let t: SignInTestApp;
  let mocks: ProviderMocks;

  beforeAll(async () => {
    mocks = await startProviderMocks();
    t = await startSignInTestApp(dialect, mocks.upstreams);
    await t.setOptions({ ...mocks.options(), TurnstileSiteKey: 'site-key-public' });
  });
  afterAll(async () => {
    await t?.close();
    await mocks?.server.close();
  });

  const account = (id: number, login: string, extra: Partial<GitHubAccount> = {}): GitHubAccount => ({
    id,
    login,
    name: `${login} name`,
    publicEmail: null,
    emails: [],
    ...extra,
  });
  /** The browser's side: fetch a state (setting its cookie), then come back with the code. */
  async function gitHubCallback(who: GitHubAccount, options: { cookie?: string; aff?: string } = {}) {
    const issued = await t.get('/api/oauth/state', options.cookie);
    const cookie = cookiesFrom(issued, options.cookie);
    const aff = options.aff ? `&aff=${options.aff}` : '';
    const url = `/api/oauth/github?code=${mocks.github.codeFor(who)}&state=${issued.json().data}${aff}`;
    return t.get(url, cookie);
  }
  const user = (username: string) => t.services.userRepository.findByUsername(username);
  const signIn = (username: string, password = 'password-123') =>
    t.post('/api/user/login', { username, password }).then((response) => cookiesFrom(response));

  it('reports the enabled sign-in methods and their public ids on /api/status', async () => {
    const status = (await t.get('/api/status')).json().data;
    expect(status).toMatchObject({
      github_oauth: true,
      github_client_id: mocks.github.clientId,
      oidc_auth: true,
      lark_login: true,
      lark_client_id: mocks.lark.appId,
      wechat_login: true,
      wechat_qrcode: 'https://example.com/qr.png',
      email_verification: false,
      turnstile_check: false,
      turnstile_site_key: 'site-key-public',
    });
  });

  it('keeps a 12-character state in an HttpOnly cookie and refuses callbacks that do not match it', async () => {
    const issued = await t.get('/api/oauth/state');
    expect(issued.json().data).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(issued.cookies.find((cookie) => cookie.name === 'oauth_state')).toMatchObject({ httpOnly: true });
    const cookie = cookiesFrom(issued);
    const code = mocks.github.codeFor(account(1, 'mallory'));
    const calls = mocks.server.received.length;
    expect((await t.get(`/api/oauth/github?code=${code}&state=other-state1`, cookie)).statusCode).toBe(403);
    expect((await t.get(`/api/oauth/github?code=${code}&state=${issued.json().data}`)).statusCode).toBe(403);
    expect((await t.get(`/api/oauth/github?code=${code}`, cookie)).statusCode).toBe(403);
    expect(mocks.server.received.length).toBe(calls);
  });

  it('registers a new user from GitHub with the invite, then signs it in on the next visit', async () => {
    expect((await t.post('/api/user/register', { username: 'inviter', password: 'password-123' })).statusCode).toBe(
      200,
    );
    const inviter = await user('inviter');
    const octo = account(4242, 'octocat', {
      emails: [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    });
    const first = await gitHubCallback(octo, { aff: inviter?.aff_code ?? '' });
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.json().data).sort()).toEqual(
      ['avatar_url', 'display_name', 'id', 'password_change_required', 'role', 'status', 'username'].sort(),
    );
    expect(first.json().data).toMatchObject({ username: 'octocat', display_name: 'octocat name', role: 1 });
    const self = (await t.get('/api/user/self', cookiesFrom(first))).json().data;
    expect(self).toMatchObject({ github_id: 'octocat', email: 'octo@example.com', inviter_id: inviter?.id });
    expect(self.avatar_url).toBe('https://avatars.example/u/4242');
    expect(self.last_login_time).toBeGreaterThan(0);
    expect(self.last_login_ip).not.toBe('');

    const renamed = await gitHubCallback(account(4242, 'octo-renamed'));
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.id).toBe(self.id);
    expect((await user('octocat'))?.github_id).toBe('octo-renamed');
  });

  it('names a new user github_<n> when the GitHub login is taken or too long', async () => {
    const response = await gitHubCallback(account(77, 'root'));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.username).toMatch(/^github_\d+$/);
    const long = await gitHubCallback(account(78, 'a-very-long-github-login'));
    expect(long.json().data.username).toMatch(/^github_\d+$/);
  });

  it('finds users by legacy login unless GitHubOldIdCloseEnabled, and by an e-mail both sides verified', async () => {
    await t.post('/api/user/register', { username: 'legacy', password: 'password-123' });
    const legacy = await user('legacy');
    await t.services.userRepository.update(legacy?.id ?? 0, { github_id: 'legacy-login' });
    const matched = await gitHubCallback(account(5001, 'legacy-login'));
    expect(matched.json().data.id).toBe(legacy?.id);
    expect((await user('legacy'))?.github_id_new).toBe(5001);

    await t.post('/api/user/register', { username: 'oldonly', password: 'password-123' });
    const oldOnly = await user('oldonly');
    await t.services.userRepository.update(oldOnly?.id ?? 0, { github_id: 'old-only' });
    await t.setOptions({ GitHubOldIdCloseEnabled: 'true' });
    const separate = await gitHubCallback(account(5002, 'old-only'));
    expect(separate.json().data.id).not.toBe(oldOnly?.id);
    await t.setOptions({ GitHubOldIdCloseEnabled: 'false' });

    await t.post('/api/user/register', { username: 'mailer', password: 'password-123', email: 'mailer@example.com' });
    // Registered with verification off, the address is only typed in: it must not match (item 7).
    const typedIn = await gitHubCallback(
      account(5005, 'not-mailer', { emails: [{ email: 'mailer@example.com', primary: true, verified: true }] }),
    );
    expect(typedIn.json().data.username).toBe('not-mailer');
    const mailer = await user('mailer');
    await t.services.userRepository.update(mailer?.id ?? 0, { email_verified: 1 });
    const byMail = await gitHubCallback(
      account(5003, 'mailer-gh', { emails: [{ email: 'mailer@example.com', primary: true, verified: true }] }),
    );
    expect(byMail.json().data.username).toBe('mailer');
    const unverified = await gitHubCallback(
      account(5004, 'sneaky', { emails: [{ email: 'legacy-nobody@example.com', primary: true, verified: false }] }),
    );
    expect(unverified.json().data.username).toBe('sneaky');
  });

  it('binds GitHub to the signed-in user with message "bind", and refuses one bound elsewhere', async () => {
    await t.post('/api/user/register', { username: 'binder', password: 'password-123' });
    const cookie = await signIn('binder');
    const bound = await gitHubCallback(account(6001, 'binder-gh'), { cookie });
    expect(bound.statusCode).toBe(200);
    expect(bound.json()).toMatchObject({ success: true, message: 'bind' });
    expect(await user('binder')).toMatchObject({ github_id: 'binder-gh', github_id_new: 6001 });
    const taken = await gitHubCallback(account(4242, 'octo-renamed'), { cookie });
    expect(taken.statusCode).toBe(409);
    expect((await user('binder'))?.github_id_new).toBe(6001);
  });

  it('refuses a disabled user and, with registration closed, an unknown one', async () => {
    const root = await signIn('root', 'root-password-123');
    await t.post('/api/user/manage', { username: 'binder', action: 'disable' }, root);
    const disabled = await gitHubCallback(account(6001, 'binder-gh'));
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json().message).toContain('disabled');
    expect(disabled.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();

    await t.setOptions({ RegisterEnabled: 'false' });
    const before = await t.services.userRepository.count();
    const closed = await gitHubCallback(account(7001, 'newcomer'));
    expect(closed.statusCode).toBe(403);
    expect(await t.services.userRepository.count()).toBe(before);
    await t.setOptions({ RegisterEnabled: 'true' });
  });

  it('answers 400 for a code GitHub rejects', async () => {
    const issued = await t.get('/api/oauth/state');
    const response = await t.get(`/api/oauth/github?code=unknown&state=${issued.json().data}`, cookiesFrom(issued));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('incorrect or expired');
  });

  it('unbinds a provider from the signed-in user', async () => {
    const cookie = await signIn('legacy');
    const unbound = await t.post('/api/user/unbind', { type: 'github' }, cookie);
    expect(unbound.statusCode).toBe(200);
    expect(await user('legacy')).toMatchObject({ github_id: '', github_id_new: 0 });
    expect((await t.post('/api/user/unbind', { type: 'myspace' }, cookie)).statusCode).toBe(400);
    expect((await t.post('/api/user/unbind', { type: 'github' })).statusCode).toBe(401);
  });

  it('sends the client secret only to GitHub and never returns a secret', async () => {
    const exchange = mocks.server.received.find((call) => call.path === '/github/login/oauth/access_token');
    expect(exchange?.body).toMatchObject({ client_secret: mocks.github.clientSecret });
    const root = await signIn('root', 'root-password-123');
    expect((await t.get('/api/option/', root)).statusCode).toBe(200);
    expect(mocks.github.issued.length).toBeGreaterThan(0);
    expect(findLeaks(t.responses, mocks.secrets())).toEqual([]);
  });
});
