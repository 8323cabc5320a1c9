import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../../test/api/account/mail-catcher.js';
import { ROOT_TOKEN, sessionCookie, startTestApp, type TestApp } from '../../../test/app.js';
import { withPasswordCheck } from '../../../test/passkey/password-check.js';
import { type CreationOptions, SoftwareAuthenticator } from '../../../test/passkey/software-authenticator.js';
import { VerificationCodes } from '../account/verification.js';

/**
 * Issue 29 item 11: a leaked access token must not be able to add a passkey that outlives the
 * victim's password change. Adding one needs a browser session whose password was checked in the
 * last ten minutes; a password change or reset can remove passkeys; the user is mailed on each one.
 */
describe('adding passkeys, and removing them with the password', () => {
  let t: TestApp;
  let smtp: MailCatcher;
  beforeAll(async () => {
    smtp = await startMailCatcher();
    t = await startTestApp();
    const options = {
      PasskeyLoginEnabled: 'true',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.user,
      SMTPFrom: 'hub@example.com',
      SMTPToken: smtp.password,
    };
    for (const [key, value] of Object.entries(options)) {
      const headers = { authorization: ROOT_TOKEN };
      const saved = await t.app.inject({ method: 'PUT', url: '/api/option/', headers, payload: { key, value } });
      expect(saved.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const begin = (headers: Record<string, string>) => call('POST', '/api/webauthn/registration/begin', headers, {});

  /** Adds a passkey with an already confirmed cookie; returns its id. */
  async function enrol(cookie: string, alias: string): Promise<number> {
    const started = await call('POST', '/api/webauthn/registration/begin', { cookie }, { alias });
    expect(started.statusCode, started.body).toBe(200);
    const attestation = new SoftwareAuthenticator('http://localhost:3000').register(
      started.json().data as CreationOptions,
    );
    const finished = await call('POST', '/api/webauthn/registration/finish', { cookie }, attestation);
    expect(finished.statusCode, finished.body).toBe(200);
    return finished.json().data.id as number;
  }
  const passkeysOf = async (cookie: string) =>
    ((await call('GET', '/api/webauthn/credentials', { cookie })).json().data as Array<{ id: number }>).map(
      (passkey) => passkey.id,
    );

  it('refuses an access token with 403, even one whose user confirmed the password in a browser', async () => {
    const { cookie } = await t.createUser('enrol_token');
    const token = (await call('POST', '/api/user/token', { cookie })).json().data as string;
    const confirmed = await withPasswordCheck(t.app, cookie);
    const stamp = confirmed.slice(confirmed.indexOf('password_check='));
    const refused = await begin({ authorization: token, cookie: stamp });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('access token');
    const finish = await call('POST', '/api/webauthn/registration/finish', { authorization: token }, {});
    expect(finish.statusCode).toBe(403);
    // The same token still reads the list: only adding is refused.
    expect((await call('GET', '/api/webauthn/credentials', { authorization: token })).statusCode).toBe(200);
  });

  it('asks a session for its password first; a wrong one stamps nothing, the right one opens ten minutes', async () => {
    const { cookie } = await t.createUser('enrol_sess');
    const unconfirmed = await begin({ cookie });
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().message).toContain('password_check_required');
    const wrong = await call('POST', '/api/webauthn/password_check', { cookie }, { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.cookies.find((entry) => entry.name === 'password_check')).toBeUndefined();
    const anonymous = await call('POST', '/api/webauthn/password_check', {}, { password: 'password-123' });
    expect(anonymous.statusCode).toBe(401);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const confirmed = await withPasswordCheck(t.app, cookie);
    expect((await begin({ cookie: confirmed })).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 601_000);
    expect((await begin({ cookie: confirmed })).statusCode).toBe(403);
  });

  it('a check made before signing out does not carry over to a new session', async () => {
    const { cookie } = await t.createUser('enrol_out');
    const confirmed = await withPasswordCheck(t.app, cookie);
    expect((await call('POST', '/api/user/logout', { cookie })).statusCode).toBe(200);
    const fresh = await t.login('enrol_out', 'password-123');
    const stamp = confirmed.slice(confirmed.indexOf('password_check='));
    expect((await begin({ cookie: `${fresh}; ${stamp}` })).statusCode).toBe(403);
  });

  it('mails the user when a passkey is added', async () => {
    const { cookie } = await t.createUser('enrol_mail', { email: 'enrol-mail@example.com' });
    await enrol(await withPasswordCheck(t.app, cookie), 'Work laptop');
    await expect
      .poll(() => smtp.mails.find((mail) => mail.to.includes('enrol-mail@example.com'))?.text ?? '')
      .toContain('a passkey was added to your account');
    const mail = smtp.mails.find((entry) => entry.to.includes('enrol-mail@example.com'))?.text ?? '';
    expect(mail).toContain('Work laptop');
  });

  it('a password change removes the passkeys it names, and refuses foreign ids before changing anything', async () => {
    const owner = await t.createUser('enrol_change');
    const other = await t.createUser('enrol_other');
    const confirmed = await withPasswordCheck(t.app, owner.cookie);
    const [kept, removed] = [await enrol(confirmed, 'Kept'), await enrol(confirmed, 'Lost phone')];
    const foreign = await enrol(await withPasswordCheck(t.app, other.cookie), 'Not yours');
    const change = (cookie: string, body: object) =>
      call('PUT', '/api/user/self', { cookie }, { original_password: 'password-123', ...body });

    const refused = await change(owner.cookie, { password: 'new-password-456', remove_passkeys: [foreign] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('remove_passkeys');
    const alone = await change(owner.cookie, { display_name: 'Owner', remove_passkeys: [removed] });
    expect(alone.statusCode).toBe(400);
    expect(await passkeysOf(owner.cookie)).toEqual([kept, removed]);
    expect(await passkeysOf(other.cookie)).toEqual([foreign]);

    const changed = await change(owner.cookie, { password: 'new-password-456', remove_passkeys: [removed] });
    expect(changed.statusCode).toBe(200);
    const session = sessionCookie(changed);
    expect(await passkeysOf(session)).toEqual([kept]);
    const all = await call(
      'PUT',
      '/api/user/self',
      { cookie: session },
      { original_password: 'new-password-456', password: 'newer-password-789', remove_passkeys: true },
    );
    expect(all.statusCode).toBe(200);
    expect(await passkeysOf(sessionCookie(all))).toEqual([]);
    expect(await passkeysOf(other.cookie)).toEqual([foreign]);
  });

  it('a password reset lists the passkeys left, and removes them all when asked', async () => {
    const codes = new VerificationCodes(t.services.cache);
    const { cookie } = await t.createUser('enrol_reset', { email: 'enrol-reset@example.com' });
    const id = await enrol(await withPasswordCheck(t.app, cookie), 'Tablet');
    const keep = await call(
      'POST',
      '/api/user/reset',
      {},
      { email: 'enrol-reset@example.com', token: await codes.issue('reset', 'enrol-reset@example.com', 32) },
    );
    expect(keep.statusCode).toBe(200);
    expect(keep.json().passkeys).toEqual([expect.objectContaining({ id, alias: 'Tablet' })]);
    const token = await codes.issue('reset', 'enrol-reset@example.com', 32);
    const removeAll = await call(
      'POST',
      '/api/user/reset',
      {},
      { email: 'enrol-reset@example.com', token, remove_passkeys: true },
    );
    expect(removeAll.statusCode).toBe(200);
    expect(removeAll.json().passkeys).toEqual([]);
    const session = await t.login('enrol_reset', removeAll.json().data as string);
    expect(await passkeysOf(session)).toEqual([]);
  });
});
