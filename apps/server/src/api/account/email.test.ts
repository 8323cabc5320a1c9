import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, findLeaks, type SignInTestApp, startSignInTestApp } from '../../../test/api/account/app.js';
import { type MailCatcher, startMailCatcher } from '../../../test/api/account/mail-catcher.js';
import { type ProviderMocks, startProviderMocks } from '../../../test/api/account/mocks.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('e-mail codes, password reset and Turnstile on %s', (dialect) => {
  let t: SignInTestApp;
  let smtp: MailCatcher;
  let mocks: ProviderMocks;

  beforeAll(async () => {
    mocks = await startProviderMocks();
    smtp = await startMailCatcher();
    t = await startSignInTestApp(dialect, mocks.upstreams);
    await t.setOptions({
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.user,
      SMTPFrom: 'hub@example.com',
      SMTPToken: smtp.password,
      ServerAddress: 'https://hub.example.com/',
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), mocks?.server.close()]);
  });

  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  const codeMailedTo = (address: string) => {
    const text = mailsTo(address).at(-1)?.text ?? '';
    const code = /verification code for .+? is ([A-Za-z0-9]{6})\./.exec(text)?.[1];
    if (!code) throw new Error(`no verification code mailed to ${address}`);
    return code;
  };
  const register = (payload: Record<string, unknown>, query = '') =>
    t.post(`/api/user/register${query}`, { password: 'password-123', ...payload });
  const login = (username: string, password: string) => t.post('/api/user/login', { username, password });

  it('answers 503 and sends nothing while SMTP is not configured', async () => {
    const response = await t.get('/api/verification?email=early@example.com');
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toContain('e-mail is not set up');
    expect(smtp.mails).toHaveLength(0);
    await t.setOptions({ SMTPServer: '127.0.0.1' });
  });

  it('mails a 6-character code over authenticated SMTP; registration accepts it once', async () => {
    const sent = await t.get('/api/verification?email=new@example.com');
    expect(sent.statusCode).toBe(200);
    expect(sent.json().success).toBe(true);
    expect(smtp.logins).toContain(smtp.user);
    expect(mailsTo('new@example.com')[0]?.from).toBe('hub@example.com');
    const code = codeMailedTo('new@example.com');

    await t.setOptions({ EmailVerificationEnabled: 'true' });
    const wrong = await register({ username: 'newbie', email: 'new@example.com', verification_code: 'zzzzzz' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('verification_code');
    const takenName = await register({ username: 'root', email: 'new@example.com', verification_code: code });
    expect(takenName.statusCode).toBe(409);
    const right = await register({ username: 'newbie', email: 'new@example.com', verification_code: code });
    expect(right.statusCode).toBe(200);
    const again = await register({ username: 'newbie2', email: 'new@example.com', verification_code: code });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('expired');
    await t.setOptions({ EmailVerificationEnabled: 'false' });
  });

  it('refuses an address already in use, or not an address, without mailing', async () => {
    const before = smtp.mails.length;
    const taken = await t.get('/api/verification?email=new@example.com');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('already in use');
    const invalid = await t.get('/api/verification?email=not-an-address');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toContain('email');
    expect(smtp.mails.length).toBe(before);
  });

  it('enforces the domain whitelist when the restriction is on', async () => {
    await t.setOptions({ EmailDomainWhitelist: 'example.com, corp.test', EmailDomainRestrictionEnabled: 'true' });
    const refused = await t.get('/api/verification?email=someone@gmail.com');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('corp.test');
    expect(mailsTo('someone@gmail.com')).toHaveLength(0);
    expect((await t.get('/api/verification?email=someone@Corp.test')).statusCode).toBe(200);
    await t.setOptions({ EmailDomainRestrictionEnabled: 'false' });
    expect((await t.get('/api/verification?email=someone@gmail.com')).statusCode).toBe(200);
  });

  it('resets a forgotten password end to end; the old password and session stop working', async () => {
    expect((await register({ username: 'forgetful', email: 'forgetful@example.com' })).statusCode).toBe(200);
    const oldSession = cookiesFrom(await login('forgetful', 'password-123'));
    const asked = await t.get('/api/reset_password?email=forgetful@example.com');
    expect(asked.statusCode).toBe(200);
    const text = mailsTo('forgetful@example.com').at(-1)?.text ?? '';
    const link = /https:\/\/hub\.example\.com\/user\/reset\?email=([^&\s]+)&token=([A-Za-z0-9]{32})\b/.exec(text);
    expect(link?.[1]).toBe(encodeURIComponent('forgetful@example.com'));
    const token = link?.[2] ?? '';

    const wrong = await t.post('/api/user/reset', { email: 'forgetful@example.com', token: 'x'.repeat(32) });
    expect(wrong.statusCode).toBe(400);
    const reset = await t.post('/api/user/reset', { email: 'forgetful@example.com', token });
    expect(reset.statusCode).toBe(200);
    const password = reset.json().data as string;
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);

    expect((await login('forgetful', 'password-123')).statusCode).toBe(401);
    const signedIn = await login('forgetful', password);
    expect(signedIn.statusCode).toBe(200);
    // The mailed password was made up here: the console asks for one of the user's own.
    expect(signedIn.json().data.password_change_required).toBe(true);
    expect((await t.get('/api/user/self', oldSession)).statusCode).toBe(401);
    const reused = await t.post('/api/user/reset', { email: 'forgetful@example.com', token });
    expect(reused.statusCode).toBe(400);
    expect((await login('forgetful', password)).statusCode).toBe(200);
  });

  it('answers a reset request for an unknown address like a known one, and mails nothing', async () => {
    const known = await t.get('/api/reset_password?email=forgetful@example.com');
    const unknown = await t.get('/api/reset_password?email=nobody@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(mailsTo('nobody@example.com')).toHaveLength(0);
  });

  it('binds an e-mail address to the signed-in user with a mailed code', async () => {
    expect((await register({ username: 'binder' })).statusCode).toBe(200);
    const cookie = cookiesFrom(await login('binder', 'password-123'));
    expect((await t.get('/api/verification?email=binder@example.com')).statusCode).toBe(200);
    const code = codeMailedTo('binder@example.com');
    const anonymous = await t.get(`/api/oauth/email/bind?email=binder@example.com&code=${code}`);
    expect(anonymous.statusCode).toBe(401);
    const wrong = await t.get('/api/oauth/email/bind?email=binder@example.com&code=000000', cookie);
    expect(wrong.statusCode).toBe(400);
    const bound = await t.get(`/api/oauth/email/bind?email=binder@example.com&code=${code}`, cookie);
    expect(bound.statusCode).toBe(200);
    expect((await t.get('/api/user/self', cookie)).json().data.email).toBe('binder@example.com');
  });

  it('checks Turnstile on every guarded request: one solved challenge covers its action and one more', async () => {
    await t.setOptions({
      TurnstileSiteKey: 'site-key-public',
      TurnstileSecretKey: mocks.turnstile.secret,
      TurnstileCheckEnabled: 'true',
    });
    const siteverifyCalls = () => mocks.server.received.filter((call) => call.path === '/turnstile/siteverify').length;
    const checksBefore = siteverifyCalls();
    const missing = await t.get('/api/verification?email=human@example.com');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('turnstile');
    const failed = await t.get('/api/verification?email=human@example.com&turnstile=forged-token');
    expect(failed.statusCode).toBe(403);
    expect(mailsTo('human@example.com')).toHaveLength(0);
    // The reference's console sends one token to ask for a code and then to register with it.
    const solved = mocks.turnstile.solved();
    const passed = await t.get(`/api/verification?email=human@example.com&turnstile=${solved}`);
    expect(passed.statusCode).toBe(200);
    // No pass is remembered for the browser: without a token the next action is refused.
    const cookie = cookiesFrom(passed);
    expect((await t.get('/api/reset_password?email=human@example.com', cookie)).statusCode).toBe(400);
    const withoutToken = await t.app.inject({
      method: 'POST',
      url: '/api/user/register',
      headers: cookie ? { cookie } : {},
      payload: { username: 'robot', password: 'password-123' },
    });
    expect(withoutToken.statusCode).toBe(400);
    const registered = await register({ username: 'human' }, `?turnstile=${solved}`);
    expect(registered.statusCode).toBe(200);
    // Its second use was its last: a third action needs a new challenge.
    const third = await register({ username: 'robot' }, `?turnstile=${solved}`);
    expect(third.statusCode).toBe(403);
    expect(await t.services.userRepository.findByUsername('robot')).toBeUndefined();
    const fresh = await t.get(`/api/reset_password?email=human@example.com&turnstile=${mocks.turnstile.solved()}`);
    expect(fresh.statusCode).toBe(200);
    // Cloudflare saw each token once: the forged one, the solved one, the fresh one.
    expect(siteverifyCalls() - checksBefore).toBe(3);
    await t.setOptions({ TurnstileCheckEnabled: 'false' });
  });

  it('answers 502 when the SMTP server refuses the login, without echoing the token', async () => {
    await t.setOptions({ SMTPToken: 'wrong-smtp-token-value' });
    const response = await t.get('/api/verification?email=refused@example.com');
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toContain('sending the e-mail failed');
    expect(response.body).not.toContain('wrong-smtp-token-value');
    expect(mailsTo('refused@example.com')).toHaveLength(0);
    await t.setOptions({ SMTPToken: smtp.password });
  });

  it('never puts the SMTP token or the Turnstile secret in a response', async () => {
    const root = cookiesFrom(await login('root', 'root-password-123'));
    const options = await t.get('/api/option/', root);
    expect(options.statusCode).toBe(200);
    expect(findLeaks(t.responses, [smtp.password, ...mocks.secrets()])).toEqual([]);
  });
});
