import { MAX_QUOTA } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { down, up } from '../../platform/db/migrations/0009_invite_counters.js';

const REWARD = 500;

/**
 * Issue 14 item 5: user objects carry the reference's `aff_count` (invitees), `aff_quota` (invite
 * reward earned) and `aff_history_quota` (all-time), kept up to date in the transaction that
 * registers an invitee or pays its inviter.
 */
describe.each(availableDialects)('invite counters on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let serial = 0;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    await setOptions({ QuotaForInviter: String(REWARD), QuotaForInvitee: '0', QuotaForNewUser: '0' });
  });
  afterAll(() => t?.close());

  const call: ReturnType<typeof caller> = (...args) => caller(t)(...args);
  async function setOptions(options: Record<string, string>) {
    for (const [key, value] of Object.entries(options)) {
      const answer = await call('PUT', '/api/option/', root, { key, value });
      expect(answer.statusCode, answer.body).toBe(200);
    }
  }
  /** A new inviter: its id, session and invite code. */
  async function newInviter() {
    serial += 1;
    const { id, cookie } = await t.createUser(`host${serial}`);
    const code = (await call('GET', '/api/user/aff', cookie)).json().data as string;
    return { id, cookie, code };
  }
  async function newInvitee(code: string) {
    serial += 1;
    return t.createUser(`guest${serial}`, { aff_code: code });
  }
  async function topUp(cookie: string, quota = 10) {
    const created = await call('POST', '/api/redemption/', root, { name: 'Top-up', quota, count: 1 });
    const [key] = created.json().data as string[];
    return call('POST', '/api/user/topup', cookie, { key });
  }
  const counters = (user: Record<string, unknown>) => ({
    quota: user.quota,
    aff_count: user.aff_count,
    aff_quota: user.aff_quota,
    aff_history_quota: user.aff_history_quota,
  });
  const self = async (cookie: string) => counters((await call('GET', '/api/user/self', cookie)).json().data);

  it('starts every user at zero, in all three views', async () => {
    const { id, cookie } = await newInviter();
    const zero = { quota: 0, aff_count: 0, aff_quota: 0, aff_history_quota: 0 };
    expect(await self(cookie)).toEqual(zero);
    expect(counters((await call('GET', `/api/user/${id}`, root)).json().data)).toEqual(zero);
    const listed = (await call('GET', `/api/user/?keyword=host${serial}`, root)).json().data.data;
    expect(counters(listed[0])).toEqual(zero);
  });

  it('counts an invitee at registration and the reward when the inviter is paid', async () => {
    await setOptions({ InviterRewardCondition: 'first_topup' });
    const host = await newInviter();
    const guest = await newInvitee(host.code);
    expect(await self(host.cookie)).toEqual({ quota: 0, aff_count: 1, aff_quota: 0, aff_history_quota: 0 });
    expect((await topUp(guest.cookie)).statusCode).toBe(200);
    const paid = { quota: REWARD, aff_count: 1, aff_quota: REWARD, aff_history_quota: REWARD };
    expect(await self(host.cookie)).toEqual(paid);
    expect(counters((await call('GET', `/api/user/${host.id}`, root)).json().data)).toEqual(paid);
    const listed = (await call('GET', `/api/user/?keyword=${host.id}`, root)).json().data.data;
    expect(counters(listed.find((user: { id: number }) => user.id === host.id))).toEqual(paid);
    // A later top-up pays nothing more.
    expect((await topUp(guest.cookie)).statusCode).toBe(200);
    expect(await self(host.cookie)).toEqual(paid);
  });

  it('adds up over several invitees, counting one reward per invitee even when top-ups race', async () => {
    await setOptions({ InviterRewardCondition: 'registration' });
    const host = await newInviter();
    await newInvitee(host.code);
    await setOptions({ InviterRewardCondition: 'first_topup' });
    const racer = await newInvitee(host.code);
    const answers = await Promise.all([1, 2, 3, 4].map(() => topUp(racer.cookie)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await self(host.cookie)).toEqual({
      quota: 2 * REWARD,
      aff_count: 2,
      aff_quota: 2 * REWARD,
      aff_history_quota: 2 * REWARD,
    });
  });

  it('records no reward that could not be paid (balance at the maximum), but still counts the invitee', async () => {
    await setOptions({ InviterRewardCondition: 'registration' });
    const host = await newInviter();
    expect((await call('POST', `/api/user/quota/${host.id}`, root, { quota: MAX_QUOTA })).statusCode).toBe(200);
    await newInvitee(host.code);
    expect(await self(host.cookie)).toEqual({ quota: MAX_QUOTA, aff_count: 1, aff_quota: 0, aff_history_quota: 0 });
  });

  it('ignores the counters in an admin edit: only the invite flow changes them', async () => {
    const host = await newInviter();
    const edited = await call('PUT', '/api/user/', root, {
      id: host.id,
      aff_count: 9,
      aff_quota: 9,
      aff_history_quota: 9,
    });
    expect(edited.statusCode).toBe(200);
    expect(await self(host.cookie)).toEqual({ quota: 0, aff_count: 0, aff_quota: 0, aff_history_quota: 0 });
  });

  it('fills the counters of existing inviters when the migration runs', async () => {
    await setOptions({ InviterRewardCondition: 'registration' });
    const host = await newInviter();
    await newInvitee(host.code);
    await newInvitee(host.code);
    const db = t.database.db;
    await down(db, { dialect });
    await up(db);
    expect(await self(host.cookie)).toEqual({
      quota: 2 * REWARD,
      aff_count: 2,
      aff_quota: 2 * REWARD,
      aff_history_quota: 2 * REWARD,
    });
  });
});
