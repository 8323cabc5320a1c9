import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, pagedShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/** A redemption code as the reference's redemption table and edit dialog read it (§3.1 redemptions). */
const redemptionShape: Shape = {
  id: 'number',
  user_id: 'number',
  key: 'string',
  status: 'number',
  name: 'string',
  quota: 'number',
  created_time: 'number',
  redeemed_time: 'number',
};

describe.each(availableDialects)('redemption routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };
  let keys: string[];

  const data = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, cookie?: string) =>
    successData(t, method, url, cookie ? { cookie } : { authorization: ROOT_TOKEN }, payload);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    keys = (await data('POST', '/api/redemption/', { name: 'gift', quota: 3_000_000_000, count: 2 })) as string[];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('POST /api/redemption/ answers the new keys, which the dialog shows', async () => {
    expectShape({ keys }, { keys: ['string'] });
  });

  it('POST /api/user/topup answers the quota added, which the top-up card adds to the balance', async () => {
    expect(await data('POST', '/api/user/topup', { key: keys[0] }, alice.cookie)).toBe(3_000_000_000);
  });

  it('GET /api/redemption/ pages codes; GET /:id and PUT answer one code', async () => {
    const page = (await data('GET', '/api/redemption/')) as { data: Array<{ id: number; redeemed_time: number }> };
    expectShape(page, pagedShape(redemptionShape));
    const used = page.data.find((row) => row.redeemed_time > 0);
    expect(used).toBeDefined();
    const id = page.data.find((row) => row.redeemed_time === 0)?.id ?? 0;
    expectShape(await data('GET', `/api/redemption/${id}`), redemptionShape);
    expectShape(await data('PUT', '/api/redemption/?status_only=1', { id, status: 2 }), redemptionShape);
  });
});
