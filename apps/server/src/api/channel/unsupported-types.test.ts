import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * Channel types the registry lists without an adapter (the retired PaLM here, and the legacy
 * Tencent API): no new channel of them, no silent OpenAI pass-through for stored ones, whose data
 * keeps loading and stays editable.
 */
const RETIRED = providerType('palm');
const RETIRED_NAME = 'Google PaLM2';

describe.each(availableDialects)('channel types without an adapter on %s', (dialect) => {
  let r: RelayTestContext;
  /** A channel stored with an adapter-less type (as an import or an older version leaves it). */
  let storedId: number;

  const channels = () => r.t.database.db.selectFrom('channels').select(['id', 'type', 'name']).execute();
  const chat = () =>
    fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    storedId = await r.addChannel({ name: 'stored', priority: 10, tag: 'legacy' });
    await r.t.database.db.updateTable('channels').set({ type: RETIRED }).where('id', '=', storedId).execute();
    await r.t.services.changes.publish('channels', { id: storedId });
  });
  afterAll(async () => {
    await r?.close();
  });

  it('refuses to create one, naming the type, and writes nothing', async () => {
    const before = await channels();
    const created = await r.admin('POST', '/api/channel/', {
      name: 'palm',
      type: RETIRED,
      key: 'palm-key',
      models: 'chat-bison-001',
      group: 'default',
    });
    expect(created.status).toBe(400);
    expect(created.body.message).toContain(RETIRED_NAME);
    expect(created.body.message).toContain('use Google Gemini (25)');
    expect(await channels()).toEqual(before);
  });

  it('keeps a stored one loading and editable, but not movable to another such type', async () => {
    const opened = await r.admin('GET', `/api/channel/${storedId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ type: RETIRED, name: 'stored' });
    // The console sends the whole channel, its type unchanged: allowed.
    const renamed = await r.admin('PUT', '/api/channel/', { ...(opened.body.data as object), name: 'stored-renamed' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const moved = await r.admin('PUT', '/api/channel/', { id: storedId, type: providerType('tencent') });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toContain('Tencent Hunyuan (legacy)');
    expect((await channels()).find((row) => row.id === storedId)).toMatchObject({
      type: RETIRED,
      name: 'stored-renamed',
    });
  });

  it('refuses new keys on a tag of such a type', async () => {
    const tagged = await r.admin('PUT', '/api/channel_tag/legacy', { key: `${r.upstream.behaviour.apiKey}\nsk-new` });
    expect(tagged.status).toBe(400);
    expect(tagged.body.message).toContain(RETIRED_NAME);
  });

  it('answers a clear error instead of passing the request through as OpenAI', async () => {
    // The stored channel has the highest priority: without retries it is the only one tried.
    await r.t.services.options.update('RetryTimes', '0');
    const before = r.upstream.received.length;
    const answer = await chat();
    expect(answer.status).toBe(503);
    const body = (await answer.json()) as { error: { message: string; code: string } };
    expect(body.error.message).toContain(`${RETIRED_NAME} channel, Google shut the PaLM API down`);
    expect(body.error.code).toBe('unsupported_channel_type');
    expect(r.upstream.received.length).toBe(before);
  });

  it('moves on to a channel it can call when retries are on', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    const before = r.upstream.received.length;
    const answer = await chat();
    expect(answer.status).toBe(200);
    // One request upstream: the OpenAI channel's; the stored one sent nothing.
    expect(r.upstream.received.length).toBe(before + 1);
  });
});
