import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_TOKEN, sessionCookie, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: unknown, cookie?: string) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('registers a user with the default group, display name and an invite code', async () => {
    const response = await post('/api/user/register', { username: 'alice', password: 'password-123' });
    expect(response.statusCode).toBe(200);
    const user = response.json().data;
    expect(user).toMatchObject({ username: 'alice', display_name: 'alice', role: 1, status: 1 });
    const cookie = await t.login('alice', 'password-123');
    const self = (await get('/api/user/self', { cookie })).json().data;
    expect(self).toMatchObject({ username: 'alice', group: 'default', quota: 0, role: 1 });
    expect(self.aff_code).toMatch(/^[A-Za-z0-9]{4}$/);
    expect(self).not.toHaveProperty('password');
    expect(self).not.toHaveProperty('access_token_hash');
  });

  it.each([
    [{ username: 'ab', password: 'password-123' }, 'username must be at least 3 characters'],
    [{ username: 'abcdefghijklm', password: 'password-123' }, 'username must be at most 12 characters'],
    [{ username: 'bob', password: 'short' }, 'password must be at least 8 characters'],
    [{ password: 'password-123' }, 'username'],
    [{ username: 'bob', password: 'password-123', email: 'not-an-email' }, 'email'],
  ])('refuses bad registration %j with a 400 naming the field', async (payload, message) => {
    const response = await post('/api/user/register', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain(message);
  });

  it('answers 409 for a username that is taken, and writes nothing', async () => {
    await post('/api/user/register', { username: 'dupe', password: 'password-123' });
    const before = await t.services.userRepository.count();
    const response = await post('/api/user/register', { username: 'dupe', password: 'password-456' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('already taken');
    expect(await t.services.userRepository.count()).toBe(before);
  });

  it('signs in by username or e-mail with an HttpOnly SameSite=Strict session cookie', async () => {
    await post('/api/user/register', { username: 'carol', password: 'password-123', email: 'carol@example.com' });
    const byName = await post('/api/user/login', { username: 'carol', password: 'password-123' });
    expect(byName.statusCode).toBe(200);
    expect(byName.json().data).toMatchObject({ username: 'carol', role: 1 });
    const cookie = byName.cookies.find((entry) => entry.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const byEmail = await post('/api/user/login', { username: 'carol@example.com', password: 'password-123' });
    expect(byEmail.statusCode).toBe(200);
  });

  it('refuses a wrong password or an unknown user with the same 401', async () => {
    const wrong = await post('/api/user/login', { username: 'carol', password: 'wrong-password' });
    const unknown = await post('/api/user/login', { username: 'nobody', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
  });

  it('needs a session or access token for /api/user/self', async () => {
    const anonymous = await get('/api/user/self');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false });
    const forged = await get('/api/user/self', { cookie: 'session=eyJ1aWQiOjF9.forged' });
    expect(forged.statusCode).toBe(401);
  });

  it('logs out by clearing the cookie', async () => {
    const response = await get('/api/user/logout');
    expect(response.statusCode).toBe(200);
    const cleared = response.cookies.find((entry) => entry.name === 'session');
    expect(cleared?.value).toBe('');
  });

  it('updates the display name and password; the new password signs out other sessions', async () => {
    const { cookie: first } = await t.createUser('dave');
    const second = await t.login('dave', 'password-123');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { cookie: first },
      payload: { display_name: 'Dave D', password: 'new-password-1', original_password: 'password-123' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.display_name).toBe('Dave D');
    const renewed = sessionCookie(response);
    expect((await get('/api/user/self', { cookie: renewed })).statusCode).toBe(200);
    expect((await get('/api/user/self', { cookie: second })).statusCode).toBe(401);
    expect((await post('/api/user/login', { username: 'dave', password: 'password-123' })).statusCode).toBe(401);
    expect((await post('/api/user/login', { username: 'dave', password: 'new-password-1' })).statusCode).toBe(200);
  });

  it('refuses a too-short new password without changing anything', async () => {
    const { cookie } = await t.createUser('erin');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { cookie },
      payload: { display_name: 'Changed', password: 'short' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('password');
    expect((await get('/api/user/self', { cookie })).json().data.display_name).toBe('erin');
  });

  it('regenerates the access token, which then authenticates with or without Bearer', async () => {
    const { cookie } = await t.createUser('frank');
    const first = (await get('/api/user/token', { cookie })).json().data as string;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect((await get('/api/user/self', { authorization: first })).json().data.username).toBe('frank');
    expect((await get('/api/user/self', { authorization: `Bearer ${first}` })).json().data.username).toBe('frank');
    const second = (await get('/api/user/token', { cookie })).json().data as string;
    expect(second).not.toBe(first);
    const stale = await get('/api/user/self', { authorization: first });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toContain('access token is invalid');
  });

  it('stores only a digest of the access token', async () => {
    const root = await t.services.userRepository.findByUsername('root');
    expect(root?.access_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(root?.access_token_hash).not.toContain(ROOT_TOKEN);
    expect((await get('/api/user/self', { authorization: ROOT_TOKEN })).json().data.role).toBe(100);
  });

  it('returns the affiliate code and, with InviterRewardCondition registration, rewards both sides at once', async () => {
    await t.services.options.update('InviterRewardCondition', 'registration');
    await t.services.options.update('QuotaForNewUser', '100');
    await t.services.options.update('QuotaForInviter', '30');
    await t.services.options.update('QuotaForInvitee', '20');
    const { cookie: inviterCookie } = await t.createUser('inviter');
    const code = (await get('/api/user/aff', { cookie: inviterCookie })).json().data as string;
    const { cookie } = await t.createUser('invitee', { aff_code: code });
    const invitee = (await get('/api/user/self', { cookie })).json().data;
    const inviter = (await get('/api/user/self', { cookie: inviterCookie })).json().data;
    expect(invitee.quota).toBe(120);
    expect(invitee.inviter_id).toBe(inviter.id);
    expect(inviter.quota).toBe(130);
    const logs = await t.database.db.selectFrom('logs').selectAll().where('user_id', '=', invitee.id).execute();
    expect(logs.map((log) => log.type)).toEqual([4, 4]);
    for (const key of ['QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee'] as const)
      await t.services.options.update(key, '0');
    await t.services.options.update('InviterRewardCondition', 'first_topup');
  });

  it('refuses sign-in for a disabled user and ends its existing session', async () => {
    const { cookie } = await t.createUser('grace');
    const rootCookie = await t.login('root', ROOT_PASSWORD);
    await post('/api/user/manage', { username: 'grace', action: 'disable' }, rootCookie);
    expect((await post('/api/user/login', { username: 'grace', password: 'password-123' })).statusCode).toBe(401);
    expect((await get('/api/user/self', { cookie })).statusCode).toBe(401);
  });

  it('honours the registration switches', async () => {
    await t.services.options.update('RegisterEnabled', 'false');
    const closed = await post('/api/user/register', { username: 'henry', password: 'password-123' });
    expect(closed.statusCode).toBe(403);
    await t.services.options.update('RegisterEnabled', 'true');
    await t.services.options.update('EmailVerificationEnabled', 'true');
    const noCode = await post('/api/user/register', {
      username: 'henry',
      password: 'password-123',
      email: 'h@example.com',
    });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toContain('verification_code');
    await t.services.options.update('EmailVerificationEnabled', 'false');
  });
});
