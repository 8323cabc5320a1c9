import type { OwnedByView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { ChangeBus } from '../../platform/changes.js';
import { PriceRepository } from '../price/repo.js';
import { PriceService } from '../price/service.js';
import { ModelMetadataRepository } from './repo.js';
import { ModelMetadataService } from './service.js';

describe.each(availableDialects)('model owners on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const ownedBy = async (): Promise<Record<string, OwnedByView>> => (await s.call('GET', '/api/ownedby')).json().data;

  it('refuses editing to anonymous callers (401) and plain users (403), and lists publicly', async () => {
    const edits: Array<['POST' | 'PUT' | 'DELETE' | 'GET', string, unknown]> = [
      ['GET', '/api/model_ownedby/1', undefined],
      ['POST', '/api/model_ownedby/', { name: 'Acme' }],
      ['PUT', '/api/model_ownedby/', { id: 1001, name: 'Acme' }],
      ['DELETE', '/api/model_ownedby/1001', undefined],
    ];
    for (const [method, url, body] of edits) {
      expect((await s.call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await s.call(method, url, s.plain, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const list = await s.call('GET', '/api/model_ownedby/');
    expect(list.statusCode).toBe(200);
    const owners: OwnedByView[] = list.json().data;
    expect(owners[0]).toEqual({ id: 1, name: 'OpenAI', icon: '' });
    expect(owners.map((owner) => owner.id)).toEqual([...owners.map((owner) => owner.id)].sort((a, b) => a - b));
  });

  it('adds owners above the reserved ids, taking the next free id when none is given', async () => {
    const first = await s.call('POST', '/api/model_ownedby/', s.root, {
      name: ' Acme AI ',
      icon: 'https://x.test/a.png',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ id: 1001, name: 'Acme AI', icon: 'https://x.test/a.png' });
    const chosen = await s.call('POST', '/api/model_ownedby/', s.root, { id: 2000, name: 'Chosen' });
    expect(chosen.json().data).toEqual({ id: 2000, name: 'Chosen', icon: '' });
    const next = await s.call('POST', '/api/model_ownedby/', s.root, { id: 0, name: 'Next' });
    expect(next.json().data.id).toBe(2001);

    const owners = await ownedBy();
    expect(owners['1001']).toEqual({ id: 1001, name: 'Acme AI', icon: 'https://x.test/a.png' });
    expect(owners['1']?.name).toBe('OpenAI');
    expect((await s.call('GET', '/api/model_ownedby/2000', s.root)).json().data.name).toBe('Chosen');
    expect((await s.call('GET', '/api/model_ownedby/14', s.root)).json().data.name).toBe('Anthropic');
    expect((await s.call('GET', '/api/model_ownedby/999', s.root)).statusCode).toBe(404);
  });

  it('refuses reserved ids, duplicate ids and bad fields with the field named', async () => {
    const cases: Array<['POST' | 'PUT', unknown, number, string]> = [
      ['POST', { id: 14, name: 'Fake Anthropic' }, 400, 'invalid id'],
      ['POST', { id: 1000, name: 'Edge' }, 400, 'id'],
      ['POST', { id: 1001, name: 'Twice' }, 409, 'id'],
      ['POST', { name: '' }, 400, 'name'],
      ['POST', { name: 'x'.repeat(101) }, 400, 'name'],
      ['POST', { name: 'Icon', icon: 'javascript:alert(1)' }, 400, 'icon'],
      ['POST', { id: 1.5, name: 'Half' }, 400, 'id'],
      ['PUT', { id: 1, name: 'Not OpenAI' }, 400, 'invalid id'],
      ['PUT', { id: 4242, name: 'Nobody' }, 404, 'id'],
      ['PUT', { name: 'No id' }, 400, 'id'],
    ];
    for (const [method, body, status, field] of cases) {
      const response = await s.call(method, '/api/model_ownedby/', s.root, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().message, JSON.stringify(body)).toContain(field);
    }
    expect((await ownedBy())['1']?.name).toBe('OpenAI');
  });

  it('renames an owner, and names it in the prices and available models', async () => {
    const renamed = await s.call('PUT', '/api/model_ownedby/', s.root, { id: 1001, name: 'Acme Labs', icon: '' });
    expect(renamed.json().data).toEqual({ id: 1001, name: 'Acme Labs', icon: '' });
    expect((await ownedBy())['1001']?.name).toBe('Acme Labs');
    // Same values again: still a success (MySQL reports no changed row).
    expect((await s.call('PUT', '/api/model_ownedby/', s.root, { id: 1001, name: 'Acme Labs' })).statusCode).toBe(200);
    await s.call('POST', '/api/prices/single', s.root, {
      model: 'acme-1',
      type: 'tokens',
      channel_type: 1001,
      input: 1,
      output: 1,
    });
    expect(s.t.services.prices.ownerName(1001)).toBe('Acme Labs');
    // A node starting up knows the custom owners once its prices are loaded.
    const restarted = new PriceService(new PriceRepository(s.t.database), new ChangeBus(s.t.services.cache));
    restarted.setOwnerDirectory(
      new ModelMetadataService(new ModelMetadataRepository(s.t.database), new ChangeBus(s.t.services.cache)),
    );
    expect(restarted.ownerName(1001)).toBeUndefined();
    await restarted.load();
    expect(restarted.ownerName(1001)).toBe('Acme Labs');
  });

  it('deletes custom owners only, and not while a price still names them', async () => {
    const reserved = await s.call('DELETE', '/api/model_ownedby/14', s.root);
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().message).toContain('invalid id');
    const used = await s.call('DELETE', '/api/model_ownedby/1001', s.root);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toContain('1 price');
    expect((await s.call('DELETE', '/api/model_ownedby/2000', s.root)).statusCode).toBe(200);
    expect((await s.call('DELETE', '/api/model_ownedby/2000', s.root)).statusCode).toBe(404);
    expect((await ownedBy())['2000']).toBeUndefined();
    await s.call('DELETE', '/api/prices/single/acme-1', s.root);
    expect((await s.call('DELETE', '/api/model_ownedby/1001', s.root)).statusCode).toBe(200);
  });

  it('shows owners added by another node once it announces the change', async () => {
    const other = new ModelMetadataService(
      new ModelMetadataRepository(s.t.database),
      new ChangeBus(s.t.services.cache),
    );
    await other.createOwner({ name: 'From elsewhere', icon: '' });
    await expect
      .poll(async () => Object.values(await s.t.services.modelMetadata.ownedBy()).map((owner) => owner.name))
      .toContain('From elsewhere');
  });
});
