import type { ModelInfoView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

describe.each(availableDialects)('model information on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const list = async (): Promise<ModelInfoView[]> => (await s.call('GET', '/api/model_info/')).json().data;
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
      expect((await s.call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await s.call(method, url, s.plain, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const response = await s.call('GET', '/api/model_info/');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
  });

  it('stores the lists as JSON-array text, as the reference hands them out', async () => {
    const created = await s.call('POST', '/api/model_info/', s.root, info('gpt-4o'));
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
    expect((await s.call('GET', `/api/model_info/${view.id}`, s.root)).json().data).toEqual(view);
    expect(await list()).toEqual([view]);
  });

  it('accepts the reference’s text forms: JSON-array text and a bare support URL', async () => {
    const response = await s.call('POST', '/api/model_info/', s.root, {
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
      const response = await s.call('POST', '/api/model_info/', s.root, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(response.json().message).toContain(field);
    }
    expect((await list()).map((entry) => entry.model)).toEqual(['claude-3', 'gpt-4o']);
  });

  it('updates an entry, keeping models unique', async () => {
    const [claude, gpt] = await list();
    if (!claude || !gpt) throw new Error('the entries were not created');
    const updated = await s.call('PUT', '/api/model_info/', s.root, {
      id: claude.id,
      ...info('claude-3-opus', { tags: ['chat', 'vision', 'chat'] }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ id: claude.id, model: 'claude-3-opus', tags: '["chat","vision"]' });
    expect(updated.json().data.created_at).toBe(claude.created_at);
    const same = await s.call('PUT', '/api/model_info/', s.root, { id: claude.id, ...info('claude-3-opus') });
    expect(same.statusCode).toBe(200);
    const taken = await s.call('PUT', '/api/model_info/', s.root, { id: claude.id, ...info('gpt-4o') });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('model');
    expect((await s.call('PUT', '/api/model_info/', s.root, { id: 9999, ...info('ghost') })).statusCode).toBe(404);
    expect((await s.call('PUT', '/api/model_info/', s.root, info('no-id'))).json().message).toContain('id');
  });

  it('deletes an entry', async () => {
    const [first] = await list();
    if (!first) throw new Error('no entry');
    expect((await s.call('DELETE', `/api/model_info/${first.id}`, s.root)).statusCode).toBe(200);
    expect((await s.call('DELETE', `/api/model_info/${first.id}`, s.root)).statusCode).toBe(404);
    expect((await s.call('GET', `/api/model_info/${first.id}`, s.root)).statusCode).toBe(404);
    expect((await s.call('DELETE', '/api/model_info/abc', s.root)).statusCode).toBe(400);
    expect(await list()).toHaveLength(1);
  });
});
