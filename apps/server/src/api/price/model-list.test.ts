import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, channelBody } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('the model list on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    call = caller(t);
  });
  afterAll(() => t?.close());

  const addChannel = async (models: string, status?: number) => {
    const created = await call('POST', '/api/channel/', root, channelBody({ models }));
    expect(created.statusCode, created.body).toBe(200);
    const id: number = created.json().data[0].id;
    if (status !== undefined) expect((await call('PUT', '/api/channel/', root, { id, status })).statusCode).toBe(200);
  };

  it('lists priced models and the models of enabled channels, sorted, once each, without wildcards', async () => {
    await call('POST', '/api/prices/single', root, {
      model: 'acme-family*',
      type: 'tokens',
      channel_type: 1,
      input: 1,
      output: 1,
    });
    await addChannel('only-on-a-channel,gpt-4o,acme-*');
    await addChannel('on-a-disabled-channel', 2);

    const response = await call('GET', '/api/prices/model_list', root);
    expect(response.statusCode, response.body).toBe(200);
    const list: string[] = response.json().data;
    expect(list).toContain('only-on-a-channel');
    expect(list).toContain('gpt-4o');
    expect(list).not.toContain('on-a-disabled-channel');
    expect(list.filter((model) => model.includes('*'))).toEqual([]);
    expect(new Set(list).size).toBe(list.length);
    expect(list).toEqual([...list].sort());
  });
});
