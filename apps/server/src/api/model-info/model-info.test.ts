import type { ModelInfoView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('model information on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let plain: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    ({ cookie: plain } = await t.createUser('plain'));
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const list = async (): Promise<ModelInfoView[]> => (await call('GET', '/api/model_info/')).json().data;
  const info = (model: string, fields: Record<string, unknown> = {}) => ({
    model,
    name: `${model} name`,
    description: 'A model.',
    context_length: 128000,
    max_tokens: 4096,
    input_modalities: ['text', 'image'],
    output_modalities: ['text'],
    tags: ['chat'],
    support_url: ['https://example.test/docs'],
    ...fields,
  });

  it('refuses editing to anonymous callers (401) and plain users (403), and lists publicly', async () => {
    const edits: Array<['POST' | 'PUT' | 'DELETE' | 'GET', string, unknown]> = [
      ['GET', '/api/model_info/1', undefined],
      ['POST', '/api/model_info/', info('x')],
      ['PUT', '/api/model_info/', { id: 1, ...info('x') }],
      ['DELETE', '/api/model_info/1', undefined],
    ];
    for (const [method, url, body] of edits) {
      expect((await call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, plain, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const response = await call('GET', '/api/model_info/');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
  });

  it('stores the lists as JSON-array text, as the reference hands them out', async () => {
    const created = await call('POST', '/api/model_info/', root, info('gpt-4o'));
    expect(created.statusCode).toBe(200);
    const view: ModelInfoView = created.json().data;
    expect(view).toMatchObject({
      model: 'gpt-4o',
      name: 'gpt-4o name',
      context_length: 128000,
      max_tokens: 4096,
      input_modalities: '["text","image"]',
      output_modalities: '["text"]',
      tags: '["chat"]',
      support_url: '["https://example.test/docs"]',
    });
    expect(view.id).toBeGreaterThan(0);
    expect(view.created_at).toBeGreaterThan(0);
    expect((await call('GET', `/api/model_info/${view.id}`, root)).json().data).toEqual(view);
    expect(await list()).toEqual([view]);
  });

  it('accepts the reference’s text forms: JSON-array text and a bare support URL', async () => {
    const response = await call('POST', '/api/model_info/', root, {
      model: 'claude-3',
      name: 'Claude 3',
      input_modalities: '["text"]',
      tags: '',
      support_url: 'https://example.test/claude',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      description: '',
      context_length: 0,
      input_modalities: '["text"]',
      output_modalities: '[]',
      tags: '[]',
      support_url: '["https://example.test/claude"]',
    });
  });

  it('refuses a second entry for a model and bad fields, naming the field', async () => {
    const cases: Array<[unknown, number, string]> = [
      [info('gpt-4o'), 409, 'model identifier already exists'],
      [info(''), 400, 'model'],
      [info('m', { name: ' ' }), 400, 'name'],
      [info('m', { context_length: -1 }), 400, 'context_length'],
      [info('m', { max_tokens: 1.5 }), 400, 'max_tokens'],
      [info('m', { input_modalities: 'text' }), 400, 'input_modalities'],
      [info('m', { tags: ['ok', ''] }), 400, 'tags.1'],
      [info('m', { support_url: ['ftp://example.test'] }), 400, 'support_url'],
      [info('m', { description: 'x'.repeat(5001) }), 400, 'description'],
    ];
    for (const [body, status, field] of cases) {
      const response = await call('POST', '/api/model_info/', root, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(response.json().message).toContain(field);
    }
    expect((await list()).map((entry) => entry.model)).toEqual(['claude-3', 'gpt-4o']);
  });

  it('updates an entry, keeping models unique', async () => {
    const [claude, gpt] = await list();
    if (!claude || !gpt) throw new Error('the entries were not created');
    const updated = await call('PUT', '/api/model_info/', root, {
      id: claude.id,
      ...info('claude-3-opus', { tags: ['chat', 'vision', 'chat'] }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: claude.id, model: 'claude-3-opus', tags: '["chat","vision"]' });
    expect(updated.json().data.created_at).toBe(claude.created_at);
    const same = await call('PUT', '/api/model_info/', root, { id: claude.id, ...info('claude-3-opus') });
    expect(same.statusCode).toBe(200);
    const taken = await call('PUT', '/api/model_info/', root, { id: claude.id, ...info('gpt-4o') });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('model');
    expect((await call('PUT', '/api/model_info/', root, { id: 9999, ...info('ghost') })).statusCode).toBe(404);
    expect((await call('PUT', '/api/model_info/', root, info('no-id'))).json().message).toContain('id');
  });

  it('deletes an entry', async () => {
    const [first] = await list();
    if (!first) throw new Error('no entry');
    expect((await call('DELETE', `/api/model_info/${first.id}`, root)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/model_info/${first.id}`, root)).statusCode).toBe(404);
    expect((await call('GET', `/api/model_info/${first.id}`, root)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/model_info/abc', root)).statusCode).toBe(400);
    expect(await list()).toHaveLength(1);
  });
});
