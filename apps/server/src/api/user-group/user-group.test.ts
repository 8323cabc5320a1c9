import { describe, expect, it } from 'vitest';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('user groups on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const groupId = async (symbol: string) => (await s.t.services.groups.visibleTo(symbol))[symbol]?.id ?? 0;

  it('has the default group after the first start', async () => {
    const page = (await s.call('GET', '/api/user_group/?order=id', s.root)).json().data;
    expect(page.data[0]).toMatchObject({ symbol: 'default', ratio: 1, api_rate: 600, public: true, enable: true });
  });

  it('stores a group’s fallbacks and cache affinity, affinity on by default (issue 34)', async () => {
    const fallbacks = { 'gpt-4o': ['gpt-4o-mini', 'claude-3-5-haiku'] };
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'routed', name: 'Routed', fallbacks });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ fallbacks, cache_affinity: true });
    const id = created.json().data.id as number;
    const updated = await s.call('PUT', '/api/user_group/', s.root, {
      id,
      name: 'Routed',
      ratio: 1,
      api_rate: 600,
      fallbacks: {},
      cache_affinity: false,
    });
    expect(updated.statusCode).toBe(200);
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).json().data).toMatchObject({
      fallbacks: {},
      cache_affinity: false,
    });
    const cyclic = await s.call('PUT', '/api/user_group/', s.root, {
      id,
      name: 'Routed',
      ratio: 1,
      api_rate: 600,
      fallbacks: { a: ['b'], b: ['c'], c: ['a'] },
    });
    expect(cyclic.statusCode).toBe(400);
    expect(cyclic.json().message).toContain('fallbacks');
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).json().data.cache_affinity).toBe(false);
    await s.call('DELETE', `/api/user_group/${id}`, s.root);
  });

  it('creates a group with defaults; symbols are unique and validated', async () => {
    const created = await s.call('POST', '/api/user_group/', s.root, {
      symbol: 'team',
      name: 'Team',
      ratio: 0.8,
      api_rate: 120,
      public: true,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({
      symbol: 'team',
      ratio: 0.8,
      api_rate: 120,
      public: true,
      promotion: false,
      enable: true,
    });
    expect(
      (await s.call('POST', '/api/user_group/', s.root, { symbol: 'team', name: 'Again', ratio: 1, api_rate: 1 }))
        .statusCode,
    ).toBe(409);
    const bad = await s.call('POST', '/api/user_group/', s.root, {
      symbol: 'bad symbol',
      name: 'x',
      ratio: 1,
      api_rate: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('symbol');
    const negative = await s.call('POST', '/api/user_group/', s.root, {
      symbol: 'neg',
      name: 'x',
      ratio: -1,
      api_rate: 1,
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toContain('ratio');
  });

  it('updates everything but the symbol', async () => {
    const id = await groupId('team');
    const updated = await s.call('PUT', '/api/user_group/', s.root, {
      id,
      name: 'Team 2',
      ratio: 1.5,
      api_rate: 60,
      public: false,
    });
    expect(updated.json().data).toMatchObject({
      symbol: 'team',
      name: 'Team 2',
      ratio: 1.5,
      api_rate: 60,
      public: false,
    });
    const renamed = await s.call('PUT', '/api/user_group/', s.root, {
      id,
      symbol: 'other',
      name: 'x',
      ratio: 1,
      api_rate: 1,
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toContain('symbol');
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).json().data.symbol).toBe('team');
  });

  it('stores the balancing strategy, keeps it when an update leaves it out, and names a bad one', async () => {
    const id = await groupId('team');
    const body = { id, name: 'Team 2', ratio: 1.5, api_rate: 60 };
    const set = await s.call('PUT', '/api/user_group/', s.root, { ...body, routing_strategy: 'least_in_flight' });
    expect(set.json().data.routing_strategy).toBe('least_in_flight');
    const kept = await s.call('PUT', '/api/user_group/', s.root, body);
    expect(kept.json().data.routing_strategy).toBe('least_in_flight');
    const bad = await s.call('PUT', '/api/user_group/', s.root, { ...body, routing_strategy: 'fastest' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('routing_strategy');
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol: 'plainer', name: 'P' });
    expect(created.json().data.routing_strategy).toBe('weighted');
  });

  it('protects the default group from being disabled or deleted', async () => {
    const id = await groupId('default');
    const disable = await s.call('PUT', `/api/user_group/enable/${id}`, s.root);
    expect(disable.statusCode).toBe(400);
    expect(disable.json()).toMatchObject({ success: false, message: expect.stringContaining('default') });
    const remove = await s.call('DELETE', `/api/user_group/${id}`, s.root);
    expect(remove.statusCode).toBe(400);
    expect(remove.json()).toMatchObject({ success: false, message: expect.stringContaining('default') });
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).json().data.enable).toBe(true);
    // Its settings may still change.
    const group = (await s.call('GET', `/api/user_group/${id}`, s.root)).json().data;
    const edited = await s.call('PUT', '/api/user_group/', s.root, { ...group, api_rate: 900 });
    expect(edited.json().data).toMatchObject({ symbol: 'default', api_rate: 900, enable: true });
    await s.call('PUT', '/api/user_group/', s.root, group);
  });

  it('stores the promotion settings and checks their range', async () => {
    const created = await s.call('POST', '/api/user_group/', s.root, {
      symbol: 'gold',
      name: 'Gold',
      ratio: 0.9,
      api_rate: 0,
      promotion: true,
      min: 10,
      max: 100,
    });
    expect(created.json().data).toMatchObject({ symbol: 'gold', api_rate: 0, promotion: true, min: 10, max: 100 });
    const id = created.json().data.id;
    const open = await s.call('PUT', '/api/user_group/', s.root, { ...created.json().data, max: 0 });
    expect(open.json().data).toMatchObject({ promotion: true, min: 10, max: 0 });
    const inverted = await s.call('PUT', '/api/user_group/', s.root, { ...created.json().data, min: 50, max: 20 });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().message).toContain('max');
    // Without promotion the bounds are not used, so they are not checked against each other.
    const off = await s.call('PUT', '/api/user_group/', s.root, {
      ...created.json().data,
      promotion: false,
      min: 50,
      max: 20,
    });
    expect(off.statusCode).toBe(200);
    const fractional = await s.call('POST', '/api/user_group/', s.root, {
      symbol: 'gold2',
      name: 'x',
      ratio: 1,
      api_rate: 1,
      promotion: true,
      min: 1.5,
    });
    expect(fractional.statusCode).toBe(400);
    expect(fractional.json().message).toContain('min');
    expect((await s.call('DELETE', `/api/user_group/${id}`, s.root)).statusCode).toBe(200);
  });

  it('answers unknown groups with 404 and bad input with a 400 naming the field', async () => {
    expect((await s.call('PUT', '/api/user_group/enable/999999', s.root)).statusCode).toBe(404);
    expect((await s.call('DELETE', '/api/user_group/999999', s.root)).statusCode).toBe(404);
    expect(
      (await s.call('PUT', '/api/user_group/', s.root, { id: 999999, name: 'x', ratio: 1, api_rate: 1 })).statusCode,
    ).toBe(404);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', ratio: 1, api_rate: 1 }, 'symbol'],
      [{ symbol: 'ok1', ratio: 1, api_rate: 1 }, 'name'],
      [{ symbol: 'ok1', name: 'x', ratio: 'one', api_rate: 1 }, 'ratio'],
      [{ symbol: 'ok1', name: 'x', ratio: 1, api_rate: -1 }, 'api_rate'],
      [{ symbol: 'ok1', name: 'x', ratio: 1, api_rate: 1.5 }, 'api_rate'],
      [{ symbol: 'ok1', name: 'x', ratio: 1, api_rate: 1, public: 'yes' }, 'public'],
      [{ symbol: 'x'.repeat(51), name: 'x', ratio: 1, api_rate: 1 }, 'symbol'],
    ];
    for (const [payload, field] of cases) {
      const response = await s.call('POST', '/api/user_group/', s.root, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await s.call('GET', '/api/user_group/?enable=maybe', s.root)).statusCode).toBe(400);
  });

  it('toggles, filters and deletes other groups, but not while users belong to them', async () => {
    await s.call('POST', '/api/user_group/', s.root, { symbol: 'temp', name: 'Temp', ratio: 1, api_rate: 10 });
    const id = (await s.call('GET', '/api/user_group/?name=Tem', s.root)).json().data.data[0].id;
    expect((await s.call('PUT', `/api/user_group/enable/${id}`, s.root)).json().data.enable).toBe(false);
    const disabled = (await s.call('GET', '/api/user_group/?enable=false', s.root)).json().data.data;
    expect(disabled.map((group: { symbol: string }) => group.symbol)).toEqual(['temp']);
    expect((await s.call('GET', '/api/group/', s.root)).json().data).not.toContain('temp');
    expect((await s.call('PUT', `/api/user_group/enable/${id}`, s.root)).json().data.enable).toBe(true);
    const { id: memberId } = await s.t.createUser('member');
    await s.call('PUT', '/api/user/', s.root, { id: memberId, group: 'temp' });
    expect((await s.call('DELETE', `/api/user_group/${id}`, s.root)).statusCode).toBe(409);
    await s.call('PUT', '/api/user/', s.root, { id: memberId, group: 'default' });
    expect((await s.call('DELETE', `/api/user_group/${id}`, s.root)).statusCode).toBe(200);
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).statusCode).toBe(404);
  });

  it('shows public groups and the caller’s own in the user group map', async () => {
    const anonymous = (await s.call('GET', '/api/user_group_map')).json().data;
    expect(Object.keys(anonymous)).toContain('default');
    expect(Object.keys(anonymous)).not.toContain('vip');
    const { id, cookie } = await s.t.createUser('vipper');
    await s.call('PUT', '/api/user/', s.root, { id, group: 'vip' });
    expect(Object.keys((await s.call('GET', '/api/user_group_map', cookie)).json().data)).toContain('vip');
  });

  it('refuses group administration to plain users', async () => {
    const id = await groupId('default');
    for (const [method, url] of [
      ['GET', '/api/user_group/'],
      ['GET', `/api/user_group/${id}`],
      ['GET', '/api/group/'],
      ['POST', '/api/user_group/'],
      ['PUT', '/api/user_group/'],
      ['PUT', `/api/user_group/enable/${id}`],
      ['DELETE', `/api/user_group/${id}`],
    ] as const) {
      expect(
        (
          await s.call(
            method,
            url,
            s.plain,
            method === 'GET' || method === 'DELETE' ? undefined : { id, symbol: 'x', name: 'x', ratio: 1, api_rate: 1 },
          )
        ).statusCode,
      ).toBe(403);
    }
    expect((await s.call('GET', `/api/user_group/${id}`, s.root)).json().data).toMatchObject({
      symbol: 'default',
      enable: true,
    });
  });
});
