import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, ROOT_PASSWORD, type SignInTestApp, startSignInTestApp } from '../../../test/api/account/app.js';
import { type MailCatcher, startMailCatcher } from '../../../test/api/account/mail-catcher.js';
import { availableDialects } from '../../../test/databases.js';

const INVITER_REWARD = 7_000;
const INVITEE_GIFT = 300;

/**
 * Issue 13 item 15: the inviter is paid `QuotaForInviter` only when `InviterRewardCondition` is
 * met (first top-up by default, a verified e-mail, or registration), and at most once.
 */
describe.each(availableDialects)('invite rewards on %s', (dialect) => {
  let t: SignInTestApp;
  let smtp: MailCatcher;
  let root: string;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startMailCatcher();
    t = await startSignInTestApp(dialect, {});
    await t.setOptions({
      QuotaForInviter: String(INVITER_REWARD),
      QuotaForInvitee: String(INVITEE_GIFT),
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.user,
      SMTPFrom: 'hub@example.com',
      SMTPToken: smtp.password,
    });
    root = cookiesFrom(await t.post('/api/user/login', { username: 'root', password: ROOT_PASSWORD }));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const user = async (username: string) => {
    const row = await t.services.userRepository.findByUsername(username);
    if (!row) throw new Error(`no user ${username}`);
    return row;
  };
  const quotaOf = async (username: string) => Number((await user(username)).quota);
  const rewardLogs = async (username: string) =>
    (
      await t.services.database.db
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', (await user(username)).id)
        .where('type', '=', LogType.system)
        .execute()
    ).filter((log) => log.content.startsWith('邀请用户赠送'));
  const signIn = async (username: string) =>
    cookiesFrom(await t.post('/api/user/login', { username, password: 'password-123' }));

  /** A new inviter and one invitee registered with its code; returns their names. */
  async function invite(extra: Record<string, unknown> = {}) {
    serial += 1;
    const inviter = `inv${serial}`;
    const invitee = `guest${serial}`;
    expect((await t.post('/api/user/register', { username: inviter, password: 'password-123' })).statusCode).toBe(200);
    const affCode = (await user(inviter)).aff_code;
    const registered = await t.post('/api/user/register', {
      username: invitee,
      password: 'password-123',
      aff_code: affCode,
      ...extra,
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await quotaOf(invitee)).toBe(INVITEE_GIFT);
    return { inviter, invitee };
  }
  async function redeem(username: string) {
    const created = await t.post('/api/redemption/', { name: 'Top-up', quota: 1_000, count: 1 }, root);
    expect(created.statusCode, created.body).toBe(200);
    const [key] = created.json().data as string[];
    return t.post('/api/user/topup', { key }, await signIn(username));
  }
  function mailedCode(email: string): string {
    const text = smtp.mails.filter((mail) => mail.to.includes(email)).at(-1)?.text ?? '';
    return /verification code for .+? is ([A-Za-z0-9]{6})\./.exec(text)?.[1] ?? '';
  }
  async function bindEmail(username: string, email: string) {
    expect((await t.get(`/api/verification?email=${email}`)).statusCode).toBe(200);
    const bound = await t.get(`/api/oauth/email/bind?email=${email}&code=${mailedCode(email)}`, await signIn(username));
    expect(bound.statusCode).toBe(200);
  }

  it('by default pays the inviter at the first top-up, not at registration, and only once', async () => {
    const settings = (await t.get('/api/option/', root)).json().data as Array<{ key: string; value: string }>;
    expect(settings.find((entry) => entry.key === 'InviterRewardCondition')?.value).toBe('first_topup');
    const { inviter, invitee } = await invite({ email: 'unverified-guest@example.com' });
    expect(await quotaOf(inviter)).toBe(0);
    expect(await rewardLogs(inviter)).toHaveLength(0);
    expect((await redeem(invitee)).statusCode).toBe(200);
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    expect(await rewardLogs(inviter)).toHaveLength(1);
    // The console words the row from its event in the reader's language (issue 31).
    expect(JSON.parse((await rewardLogs(inviter))[0]?.metadata ?? '')).toEqual({
      event: 'inviter_reward',
      quota: INVITER_REWARD,
    });
    expect((await redeem(invitee)).statusCode).toBe(200);
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
  });

  it('pays once even when top-ups race', async () => {
    const { inviter, invitee } = await invite();
    const cookie = await signIn(invitee);
    const keys: string[] = [];
    for (let index = 0; index < 4; index++) {
      const created = await t.post('/api/redemption/', { name: 'Race', quota: 10, count: 1 }, root);
      keys.push(...(created.json().data as string[]));
    }
    const answers = await Promise.all(keys.map((key) => t.post('/api/user/topup', { key }, cookie)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    expect(await rewardLogs(inviter)).toHaveLength(1);
  });

  it('with email_verified, pays when the invitee proves an address, not for a typed-in one or a top-up', async () => {
    await t.setOptions({ InviterRewardCondition: 'email_verified' });
    const { inviter, invitee } = await invite({ email: 'typed-in@example.com' });
    expect(await quotaOf(inviter)).toBe(0);
    expect((await redeem(invitee)).statusCode).toBe(200);
    expect(await quotaOf(inviter)).toBe(0);
    await bindEmail(invitee, 'proved@example.com');
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    await bindEmail(invitee, 'proved-again@example.com');
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    expect(await rewardLogs(inviter)).toHaveLength(1);
  });

  it('with email_verified, pays at registration when the registration itself proved the address', async () => {
    await t.setOptions({ InviterRewardCondition: 'email_verified' });
    serial += 1;
    const inviter = `inv${serial}`;
    expect((await t.post('/api/user/register', { username: inviter, password: 'password-123' })).statusCode).toBe(200);
    expect((await t.get('/api/verification?email=at-signup@example.com')).statusCode).toBe(200);
    await t.setOptions({ EmailVerificationEnabled: 'true' });
    const registered = await t.post('/api/user/register', {
      username: `guest${serial}`,
      password: 'password-123',
      email: 'at-signup@example.com',
      verification_code: mailedCode('at-signup@example.com'),
      aff_code: (await user(inviter)).aff_code,
    });
    await t.setOptions({ EmailVerificationEnabled: 'false' });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
  });

  it('with registration, pays at once as the reference does, and never again', async () => {
    await t.setOptions({ InviterRewardCondition: 'registration' });
    const { inviter, invitee } = await invite();
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    expect((await redeem(invitee)).statusCode).toBe(200);
    await bindEmail(invitee, 'later@example.com');
    expect(await quotaOf(inviter)).toBe(INVITER_REWARD);
    expect(await rewardLogs(inviter)).toHaveLength(1);
  });

  it('refuses an unknown condition with a 400 naming the choices', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { cookie: root },
      payload: { key: 'InviterRewardCondition', value: 'whenever' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('first_topup');
  });
});
