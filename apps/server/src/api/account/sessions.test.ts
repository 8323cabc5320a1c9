import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, sessionCookie, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { VerificationCodes } from './verification.js';

const PASSWORD = 'password-123';

/** Sign-out, password change and reset end sessions and access tokens; state-changing GETs stay same-origin. */
describe.each(availableDialects)('sessions and access tokens on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t?.close());

  const request = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const self = (headers: Record<string, string>) => request('GET', '/api/user/self', headers);
  const newToken = async (cookie: string) => {
    const response = await request('POST', '/api/user/token', { cookie }, {});
    expect(response.statusCode).toBe(200);
    return response.json().data as string;
  };
  const changePassword = (cookie: string, body: Record<string, unknown>) =>
    request('PUT', '/api/user/self', { cookie }, { password: 'new-password-1', ...body });

  it('signing out (POST) ends this session and every other session of the user', async () => {
    const { cookie } = await t.createUser('lena');
    const other = await t.login('lena', PASSWORD);
    const response = await request('POST', '/api/user/logout', { cookie }, {});
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((entry) => entry.name === 'session')?.value).toBe('');
    // The browser dropped the cookie, but a copy of it (stolen or saved) must not work either.
    expect((await self({ cookie })).statusCode).toBe(401);
    expect((await self({ cookie: other })).statusCode).toBe(401);
    const again = await t.login('lena', PASSWORD);
    expect((await self({ cookie: again })).statusCode).toBe(200);
  });

  it('keeps the GET sign-out for the reference console, same-origin only', async () => {
    const { cookie } = await t.createUser('mona');
    const crossSite = await request('GET', '/api/user/logout', { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().message).toContain('POST /api/user/logout');
    const foreignOrigin = await request('GET', '/api/user/logout', { cookie, origin: 'https://evil.example' });
    expect(foreignOrigin.statusCode).toBe(403);
    expect((await self({ cookie })).statusCode).toBe(200);
    const sameOrigin = await request('GET', '/api/user/logout', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.statusCode).toBe(200);
    expect((await self({ cookie })).statusCode).toBe(401);
  });

  it('a password change needs the current password and changes nothing without it', async () => {
    const { cookie } = await t.createUser('nina');
    const missing = await changePassword(cookie, { display_name: 'Nina N' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('original_password');
    const wrong = await changePassword(cookie, { original_password: 'not-my-password', display_name: 'Nina N' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toContain('original_password');
    expect((await self({ cookie })).json().data.display_name).toBe('nina');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { username: 'nina', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
    const right = await changePassword(cookie, { original_password: PASSWORD });
    expect(right.statusCode).toBe(200);
  });

  it('a password change signs out the other sessions and revokes the access token', async () => {
    const { cookie } = await t.createUser('olga');
    const other = await t.login('olga', PASSWORD);
    const token = await newToken(cookie);
    expect((await self({ authorization: token })).statusCode).toBe(200);
    const changed = await changePassword(cookie, { original_password: PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.has_access_token).toBe(false);
    expect((await self({ cookie: other })).statusCode).toBe(401);
    expect((await self({ authorization: token })).statusCode).toBe(401);
    // The session that made the change gets a fresh cookie and stays signed in.
    expect((await self({ cookie: sessionCookie(changed) })).statusCode).toBe(200);
  });

  it('a password reset signs out every session and revokes the access token', async () => {
    const { cookie } = await t.createUser('pia', { email: 'pia@example.com' });
    const token = await newToken(cookie);
    const code = await new VerificationCodes(t.services.cache).issue('reset', 'pia@example.com', 32);
    const reset = await request('POST', '/api/user/reset', {}, { email: 'pia@example.com', token: code });
    expect(reset.statusCode).toBe(200);
    expect((await self({ cookie })).statusCode).toBe(401);
    expect((await self({ authorization: token })).statusCode).toBe(401);
    expect((await t.login('pia', reset.json().data as string)).startsWith('session=')).toBe(true);
  });

  it('makes a new access token by POST; a cross-site GET is refused and changes nothing', async () => {
    const { cookie } = await t.createUser('quinn');
    const token = await newToken(cookie);
    const crossSite = await request('GET', '/api/user/token', { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect((await self({ authorization: token })).statusCode).toBe(200);
    const sameOrigin = await request('GET', '/api/user/token', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.statusCode).toBe(200);
    expect((await self({ authorization: token })).statusCode).toBe(401);
  });

  it('returns the playground key by POST; a cross-site GET is refused and creates nothing', async () => {
    const { id, cookie } = await t.createUser('rhea');
    const playgroundTokens = () =>
      t.database.db
        .selectFrom('tokens')
        .select('id')
        .where('user_id', '=', id)
        .where('name', '=', 'sys_playground')
        .execute();
    const crossSite = await request('GET', '/api/token/playground', { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(await playgroundTokens()).toHaveLength(0);
    const created = await request('POST', '/api/token/playground', { cookie }, {});
    expect(created.statusCode).toBe(200);
    expect(typeof created.json().data).toBe('string');
    expect(await playgroundTokens()).toHaveLength(1);
    const legacy = await request('GET', '/api/token/playground', { cookie, 'sec-fetch-site': 'same-origin' });
    expect(legacy.json().data).toBe(created.json().data);
  });

  it('disabling a user ends their sessions for good: enabling them again does not bring them back', async () => {
    const { cookie } = await t.createUser('petra');
    const manage = (action: string) =>
      request('POST', '/api/user/manage', { authorization: ROOT_TOKEN }, { username: 'petra', action });
    expect((await manage('disable')).statusCode).toBe(200);
    expect((await manage('enable')).statusCode).toBe(200);
    expect((await self({ cookie })).statusCode).toBe(401);
    expect((await self({ cookie: await t.login('petra', PASSWORD) })).statusCode).toBe(200);
  });

  it('an access-token caller (no browser headers) may still use the legacy GETs', async () => {
    const answer = await request('GET', '/api/token/playground', { authorization: ROOT_TOKEN });
    expect(answer.statusCode).toBe(200);
  });
});
