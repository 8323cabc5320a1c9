import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryValue, expectShape, pagedShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * A user group as the reference's console reads it (§3.1 user_groups): the group table and dialog,
 * the price page (ratio per group), the profile page and the log detail (names by symbol).
 */
const groupShape: Shape = {
  id: 'number',
  symbol: 'string',
  name: 'string',
  ratio: 'number',
  api_rate: 'number',
  public: 'boolean',
  promotion: 'boolean',
  min: 'number',
  max: 'number',
  enable: 'boolean',
};

describe.each(availableDialects)('user-group routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };

  const data = (method: 'GET' | 'POST', url: string, payload?: object, cookie?: string) =>
    successData(t, method, url, cookie ? { cookie } : { authorization: ROOT_TOKEN }, payload);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    // A fractional ratio: PostgreSQL and MySQL hand decimals back as text unless converted.
    await data('POST', '/api/user_group/', {
      ...{ symbol: 'gold', name: 'Gold', ratio: 1.25, api_rate: 60, public: true },
      ...{ promotion: true, min: 10, max: 100 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/user_group/ pages groups and GET /api/user_group/:id gives one', async () => {
    const page = (await data('GET', '/api/user_group/')) as { data: Array<{ id: number; symbol: string }> };
    expectShape(page, pagedShape(groupShape));
    const gold = page.data.find((group) => group.symbol === 'gold');
    expect(gold).toMatchObject({ ratio: 1.25 });
    expectShape(await data('GET', `/api/user_group/${gold?.id}`), groupShape);
  });

  it('GET /api/group/ lists the enabled symbols', async () => {
    expectShape({ symbols: await data('GET', '/api/group/') }, { symbols: ['string'] });
  });

  it('GET /api/user_group_map maps symbols to groups, signed in or not', async () => {
    expectEveryValue(await data('GET', '/api/user_group_map', undefined, alice.cookie), groupShape);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user_group_map' });
    expectEveryValue(anonymous.json().data, groupShape);
  });
});
