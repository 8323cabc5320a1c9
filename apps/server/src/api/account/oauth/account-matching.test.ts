import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, type SignInTestApp, startSignInTestApp } from '../../../../test/api/account/app.js';
import { type MailCatcher, startMailCatcher } from '../../../../test/api/account/mail-catcher.js';
import { type ProviderMocks, startProviderMocks } from '../../../../test/api/account/mocks.js';
import type { GitHubAccount } from '../../../../test/api/account/providers.js';
import { availableDialects } from '../../../../test/databases.js';

/**
 * Issue 13 item 7: an account prepared with someone else's address (or username) must not
 * receive that person's external sign-in, and the domain allow-list holds at registration.
 */
describe.each(availableDialects)('external sign-in never captured by a prepared account on %s', (dialect) => {
  let t: SignInTestApp;
  let mocks: ProviderMocks;
  let smtp: MailCatcher;

  beforeAll(async () => {
    mocks = await startProviderMocks();
    smtp = await startMailCatcher();
    t = await startSignInTestApp(dialect, mocks.upstreams);
    await t.setOptions({
      ...mocks.options(),
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.user,
      SMTPFrom: 'hub@example.com',
      SMTPToken: smtp.password,
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), mocks?.server.close()]);
  });

  const register = (payload: Record<string, unknown>) =>
    t.post('/api/user/register', { password: 'password-123', ...payload });
  const user = (username: string) => t.services.userRepository.findByUsername(username);
  const signIn = async (username: string) =>
    cookiesFrom(await t.post('/api/user/login', { username, password: 'password-123' }));
  const gitHub = (id: number, login: string, email: string, verified: boolean): GitHubAccount => ({
    id,
    login,
    name: login,
    publicEmail: null,
    emails: [{ email, primary: true, verified }],
  });
  async function gitHubCallback(who: GitHubAccount) {
    const issued = await t.get('/api/oauth/state');
    return t.get(
      `/api/oauth/github?code=${mocks.github.codeFor(who)}&state=${issued.json().data}`,
      cookiesFrom(issued),
    );
  }
  async function oidcCallback(claims: Record<string, unknown>) {
    const endpoint = await t.get('/api/oauth/endpoint');
    const url = new URL(endpoint.json().data as string);
    const nonce = url.searchParams.get('nonce') ?? '';
    const code = mocks.oidc.codeFor(mocks.oidc.claims(String(claims.sub), { ...claims, nonce }));
    return t.get(`/api/oauth/oidc?code=${code}&state=${url.searchParams.get('state')}`, cookiesFrom(endpoint));
  }
  /** Proves `email` for the signed-in user through the e-mail code flow. */
  async function bindEmail(cookie: string, email: string) {
    expect((await t.get(`/api/verification?email=${email}`)).statusCode).toBe(200);
    const text = smtp.mails.filter((mail) => mail.to.includes(email)).at(-1)?.text ?? '';
    const code = /verification code for .+? is ([A-Za-z0-9]{6})\./.exec(text)?.[1] ?? '';
    expect((await t.get(`/api/oauth/email/bind?email=${email}&code=${code}`, cookie)).statusCode).toBe(200);
  }

  it('enforces the e-mail domain allow-list at registration with verification off', async () => {
    await t.setOptions({ EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com, corp.example' });
    const before = await t.services.userRepository.count();
    const refused = await register({ username: 'outsider', email: 'someone@elsewhere.test' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('email');
    expect(refused.json().message).toContain('example.com');
    expect(await t.services.userRepository.count()).toBe(before);
    expect((await register({ username: 'insider', email: 'insider@corp.example' })).statusCode).toBe(200);
    expect((await register({ username: 'noaddress' })).statusCode).toBe(200);
    await t.setOptions({ EmailDomainRestrictionEnabled: 'false' });
  });

  it('does not hand a GitHub sign-in to an account that only typed in the same address', async () => {
    expect((await register({ username: 'squatter', email: 'victim@example.com' })).statusCode).toBe(200);
    const squatter = await user('squatter');
    const response = await gitHubCallback(gitHub(9101, 'victim-gh', 'victim@example.com', true));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.id).not.toBe(squatter?.id);
    expect(await user('squatter')).toMatchObject({ github_id: '', github_id_new: 0 });
  });

  it('matches a verified account by e-mail only when GitHub says the address is verified', async () => {
    expect((await register({ username: 'owner' })).statusCode).toBe(200);
    await bindEmail(await signIn('owner'), 'owner@example.com');
    const owner = await user('owner');
    const unverified = await gitHubCallback(gitHub(9201, 'not-owner', 'owner@example.com', false));
    expect(unverified.statusCode).toBe(200);
    expect(unverified.json().data.id).not.toBe(owner?.id);
    const verified = await gitHubCallback(gitHub(9202, 'owner-gh', 'owner@example.com', true));
    expect(verified.json().data.id).toBe(owner?.id);
    expect((await user('owner'))?.github_id_new).toBe(9202);
  });

  it('matches OIDC by a verified e-mail of a verified account, never by preferred_username', async () => {
    expect((await register({ username: 'ssoowner' })).statusCode).toBe(200);
    await bindEmail(await signIn('ssoowner'), 'sso-owner@example.com');
    const owner = await user('ssoowner');
    const byName = await oidcCallback({ sub: 'm-1', preferred_username: 'ssoowner' });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().data.id).not.toBe(owner?.id);
    const unverified = await oidcCallback({ sub: 'm-2', preferred_username: 'x1', email: 'sso-owner@example.com' });
    expect(unverified.json().data.id).not.toBe(owner?.id);
    const verified = await oidcCallback({
      sub: 'm-3',
      preferred_username: 'x2',
      email: 'sso-owner@example.com',
      email_verified: true,
    });
    expect(verified.json().data.id).toBe(owner?.id);
    expect((await user('ssoowner'))?.oidc_id).toBe('m-3');
  });

  it('forgets that an address was verified when an administrator changes it', async () => {
    expect((await register({ username: 'moved' })).statusCode).toBe(200);
    await bindEmail(await signIn('moved'), 'moved@example.com');
    const moved = await user('moved');
    const root = cookiesFrom(await t.post('/api/user/login', { username: 'root', password: 'root-password-123' }));
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: { cookie: root },
      payload: { id: moved?.id, email: 'someone-else@example.com' },
    });
    expect(changed.statusCode).toBe(200);
    const response = await gitHubCallback(gitHub(9301, 'someone-else', 'someone-else@example.com', true));
    expect(response.json().data.id).not.toBe(moved?.id);
  });
});
