import type { RedemptionView } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

/** Issue 29 item 3: an administrator acts only on codes made by itself or by users it outranks. */
describe.each(availableDialects)('redemption codes across ranks on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  let admin1: { cookie: string; id: number };
  let admin2: { cookie: string; id: number };

  async function create(cookie: string, name: string, quota: number): Promise<string> {
    const response = await s.call('POST', '/api/redemption/', cookie, { name, quota, count: 1 });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0];
  }

  async function row(name: string) {
    return s.t.database.db.selectFrom('redemptions').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }

  async function quotaOf(id: number): Promise<number> {
    return Number((await s.t.services.userRepository.findById(id))?.quota);
  }

  beforeAll(async () => {
    admin1 = await createAdmin(s.t, s.root, 'code_adm1');
    admin2 = await createAdmin(s.t, s.root, 'code_adm2');
  });

  it('lists to an admin only the codes of itself and of lower-ranked creators, with their keys', async () => {
    const rootKey = await create(s.root, 'Rank root', 500);
    const peerKey = await create(admin2.cookie, 'Rank peer', 500);
    const ownKey = await create(admin1.cookie, 'Rank own', 500);
    const listed = (await s.call('GET', '/api/redemption/?size=100', admin1.cookie)).json().data;
    const keys = (listed.data as RedemptionView[]).map((code) => code.key);
    expect(keys).toContain(ownKey);
    expect(keys).not.toContain(rootKey);
    expect(keys).not.toContain(peerKey);
    expect(listed.total_count).toBe(listed.data.length);
    const searched = (await s.call('GET', '/api/redemption/?keyword=Rank', admin1.cookie)).json().data;
    expect(searched.data.map((code: RedemptionView) => code.name)).toEqual(['Rank own']);
    const byId = await s.call('GET', `/api/redemption/?keyword=${(await row('Rank root')).id}`, admin1.cookie);
    expect(byId.json().data.data).toEqual([]);
    // Root still sees every code, in full.
    const all = (await s.call('GET', '/api/redemption/?keyword=Rank', s.root)).json().data.data as RedemptionView[];
    expect(all.map((code) => code.key).sort()).toEqual([rootKey, peerKey, ownKey].sort());
  });

  it('refuses an admin reading, editing, disabling or deleting a code of root or of another admin (403)', async () => {
    await create(s.root, 'Out root', 500);
    await create(admin2.cookie, 'Out peer', 500);
    for (const name of ['Out root', 'Out peer']) {
      const { id } = await row(name);
      const attempts: Array<[Parameters<typeof s.call>[0], string, unknown?]> = [
        ['GET', `/api/redemption/${id}`],
        ['PUT', '/api/redemption/', { id, quota: 900_000_000_000_000 }],
        ['PUT', '/api/redemption/', { id, name: 'taken' }],
        ['PUT', '/api/redemption/?status_only=1', { id, status: 2 }],
        ['DELETE', `/api/redemption/${id}`],
      ];
      for (const [method, url, payload] of attempts) {
        const response = await s.call(method, url, admin1.cookie, payload);
        expect(response.statusCode, `${method} ${url} on ${name}`).toBe(403);
        expect(response.json().message).toContain('permission denied');
      }
      expect(await row(name)).toMatchObject({ id, name, status: 1 });
      expect(Number((await row(name)).quota)).toBe(500);
    }
    // Its own codes stay fully manageable.
    await create(admin1.cookie, 'Out own', 500);
    const { id } = await row('Out own');
    expect((await s.call('PUT', '/api/redemption/', admin1.cookie, { id, quota: 700 })).json().data.quota).toBe(700);
    expect((await s.call('DELETE', `/api/redemption/${id}`, admin1.cookie)).statusCode).toBe(200);
  });

  it('never lets an admin-role account redeem a code an admin-role account created', async () => {
    const cases: Array<[string, string, { cookie: string; id: number }]> = [
      ['admin1 for admin2', admin1.cookie, admin2],
      ['root for admin2', s.root, admin2],
    ];
    for (const [name, creator, redeemer] of cases) {
      const key = await create(creator, name, 1_000);
      const before = await quotaOf(redeemer.id);
      const response = await s.call('POST', '/api/user/topup', redeemer.cookie, { key });
      expect(response.statusCode, name).toBe(403);
      expect(response.json().message).toMatch(/^key: .*administrator/);
      expect(await quotaOf(redeemer.id)).toBe(before);
      expect(await row(name)).toMatchObject({ status: 1, redeemed_user_id: 0 });
    }
    const rootId = (await s.t.services.userRepository.findByUsername('root'))?.id ?? 0;
    const forRoot = await create(admin1.cookie, 'admin1 for root', 1_000);
    const refused = await s.call('POST', '/api/user/topup', s.root, { key: forRoot });
    expect(refused.statusCode).toBe(403);
    expect(await quotaOf(rootId)).toBe(0);
    // A common user still redeems an admin's code.
    const user = await s.t.createUser('code_user');
    const redeemed = await s.call('POST', '/api/user/topup', user.cookie, { key: forRoot });
    expect(redeemed.json()).toMatchObject({ success: true, data: 1_000 });
  });
});
