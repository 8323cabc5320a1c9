import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/** `UnpricedModelPolicy` is stored like every option: one of its choices, read back as written. */
describe.each(availableDialects)('the unpriced model policy option on %s', (dialect) => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(() => t?.close());

  const put = (value: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { cookie: root },
      payload: { key: 'UnpricedModelPolicy', value },
    });
  const stored = async () => {
    const list: Array<{ key: string; value: string }> = (
      await t.app.inject({ method: 'GET', url: '/api/option/', headers: { cookie: root } })
    ).json().data;
    return list.find((entry) => entry.key === 'UnpricedModelPolicy')?.value;
  };

  it('defaults to the fallback price, and round-trips refuse through the database', async () => {
    expect(await stored()).toBe('fallback');
    expect((await put('refuse')).statusCode).toBe(200);
    expect(await stored()).toBe('refuse');
    const row = await t.database.db
      .selectFrom('options')
      .select('value')
      .where('key', '=', 'UnpricedModelPolicy')
      .executeTakeFirst();
    expect(row?.value).toBe('refuse');
    expect((await put('fallback')).statusCode).toBe(200);
    expect(t.services.options.get('UnpricedModelPolicy')).toBe('fallback');
  });

  it('refuses any other value with a 400 naming the choices, keeping the stored one', async () => {
    await put('refuse');
    const response = await put('sometimes');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('UnpricedModelPolicy must be one of fallback, refuse');
    expect(await stored()).toBe('refuse');
  });
});
