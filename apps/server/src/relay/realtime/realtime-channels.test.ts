import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, openRealtime, refused } from '../../../test/providers/realtime/realtime-client.js';
import { type RealtimeMock, startRealtimeMock } from '../../../test/providers/realtime/realtime-upstream.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

const OPENAI = providerType('openai');

/** A loopback address where nothing listens: connecting to it is refused. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function errorRows(r: RelayTestContext, model: string) {
  await r.t.app.relay.flush();
  return r.t.database.db.selectFrom('logs').selectAll().where('type', '=', 5).where('model_name', '=', model).execute();
}

describe('realtime sessions across channels', () => {
  let r: RelayTestContext;
  let wsBase: string;
  let good: RealtimeMock;
  let busy: RealtimeMock;
  let azure: RealtimeMock;
  let azureV1: RealtimeMock;
  let dead: string;
  const ids: Record<string, number> = {};

  const open = (model: string) =>
    openRealtime(`${wsBase}/realtime?model=${model}`, {
      headers: { authorization: `Bearer ${r.apiKey}` },
      protocols: ['realtime'],
    });

  beforeAll(async () => {
    // A short idle timeout, for the session left idle below.
    r = await startRelayTest({ env: { UPSTREAM_IDLE_TIMEOUT_MS: '1500' } });
    wsBase = r.baseURL.replace(/^http/, 'ws');
    good = await startRealtimeMock();
    busy = await startRealtimeMock({
      refuse: { status: 503, code: 'server_error', message: 'The server is overloaded.' },
    });
    azure = await startRealtimeMock({ flavour: 'azure', apiKey: 'azure-resource-key-0123456789' });
    azureV1 = await startRealtimeMock({ flavour: 'azure-v1', apiKey: 'azure-v1-resource-key-0123456789' });
    dead = await closedPort();
    const channels = [
      // One model, three channels by priority: unreachable, then refusing, then serving.
      ['dead', { type: OPENAI, key: 'sk-dead', base_url: dead, models: 'rt-retry', priority: 30 }],
      [
        'busy',
        { type: OPENAI, key: busy.behaviour.apiKey, base_url: busy.url, models: 'rt-retry,rt-busy', priority: 20 },
      ],
      [
        'good',
        { type: OPENAI, key: good.behaviour.apiKey, base_url: good.url, models: 'rt-retry,rt-idle', priority: 10 },
      ],
      [
        'azure',
        {
          type: providerType('azure'),
          key: azure.behaviour.apiKey,
          base_url: azure.url,
          other: '2024-10-01-preview',
          models: 'rt-azure',
          model_mapping: JSON.stringify({ 'rt-azure': 'my-realtime-deployment' }),
        },
      ],
      [
        'azureV1',
        {
          type: providerType('azure-v1'),
          key: azureV1.behaviour.apiKey,
          base_url: azureV1.url,
          models: 'rt-azure-v1',
          model_mapping: JSON.stringify({ 'rt-azure-v1': 'my-v1-realtime-deployment' }),
        },
      ],
      // Anthropic has no realtime API: a channel of it listing the model is never called.
      ['claude', { type: providerType('anthropic'), key: 'sk-ant-x', base_url: good.url, models: 'rt-claude' }],
    ] as const;
    for (const [name, fields] of channels) ids[name] = await r.addChannel({ name, ...fields });
    const models = ['rt-retry', 'rt-busy', 'rt-idle', 'rt-azure', 'my-realtime-deployment', 'rt-claude'];
    for (const model of [...models, 'rt-azure-v1', 'my-v1-realtime-deployment']) {
      await r.setPrice(model, 1, 1);
    }
  });
  afterAll(async () => {
    await r?.close();
    for (const mock of [good, busy, azure, azureV1]) await mock?.close();
  });

  it('moves on to the next channel while upstreams refuse or cannot be reached, and bills the one that served', async () => {
    const busyBefore = busy.connections.length;
    const session = accepted(await open('rt-retry'));
    const created = await session.next('session.created');
    expect(created.session).toMatchObject({ model: 'rt-retry' });
    expect(busy.connections.length).toBe(busyBefore + 1);
    session.send({ type: 'response.create' });
    await session.next('response.done');
    session.socket.close();
    await session.closed;
    await r.t.app.relay.flush();
    const row = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .where('model_name', '=', 'rt-retry')
      .executeTakeFirstOrThrow();
    expect(row.channel_id).toBe(ids.good);
  });

  it('answers 502 with the upstream’s message when every channel refuses, and logs the failure', async () => {
    const refusal = refused(await open('rt-busy'));
    expect(refusal.status).toBe(502);
    expect(refusal.body.error.message).toContain('The server is overloaded.');
    const rows = await errorRows(r, 'rt-busy');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.channel_id).toBe(ids.busy);
  });

  it('addresses Azure’s realtime endpoint by deployment and api-version with the api-key header', async () => {
    const session = accepted(await open('rt-azure'));
    await session.next('session.created');
    const connection = azure.connections.at(-1);
    expect(connection?.path).toBe('/openai/realtime');
    expect(connection?.query.get('api-version')).toBe('2024-10-01-preview');
    expect(connection?.query.get('deployment')).toBe('my-realtime-deployment');
    expect(connection?.headers['api-key']).toBe(azure.behaviour.apiKey);
    expect(connection?.headers.authorization).toBeUndefined();
    session.send({ type: 'response.create' });
    await session.next('response.done');
    session.socket.close();
    await session.closed;
    await r.t.app.relay.flush();
    const row = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .where('channel_id', '=', ids.azure as number)
      .executeTakeFirstOrThrow();
    expect(row.model_name).toBe('my-realtime-deployment');
  });

  it('addresses Azure’s v1 realtime endpoint under /openai/v1 by model with the api-key header', async () => {
    const session = accepted(await open('rt-azure-v1'));
    await session.next('session.created');
    const connection = azureV1.connections.at(-1);
    expect(connection?.path).toBe('/openai/v1/realtime');
    expect(connection?.query.get('model')).toBe('my-v1-realtime-deployment');
    expect(connection?.query.get('deployment')).toBeNull();
    expect(connection?.headers['api-key']).toBe(azureV1.behaviour.apiKey);
    expect(connection?.headers.authorization).toBeUndefined();
    session.send({ type: 'response.create' });
    await session.next('response.done');
    session.socket.close();
    await session.closed;
    await r.t.app.relay.flush();
    const row = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .where('channel_id', '=', ids.azureV1 as number)
      .executeTakeFirstOrThrow();
    expect(row.model_name).toBe('my-v1-realtime-deployment');
    expect(row.quota).toBeGreaterThan(0);
  });

  it('does not offer a session on a channel type without a realtime API', async () => {
    const refusal = refused(await open('rt-claude'));
    expect(refusal.status).toBe(503);
    expect(refusal.body.error.code).toBe('model_not_available');
  });

  it('closes a session idle for the upstream idle timeout on both sides', async () => {
    const session = accepted(await open('rt-idle'));
    await session.next('session.created');
    const connection = good.connections.at(-1);
    expect(await session.closed).toMatchObject({ code: 1001 });
    expect(connection?.closed?.code ?? (await waitClosed(connection))).toBe(1001);
  });
});

async function waitClosed(connection: { closed?: { code: number } } | undefined): Promise<number | undefined> {
  const deadline = Date.now() + 5000;
  while (!connection?.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return connection?.closed?.code;
}

describe('realtime sessions at shutdown', () => {
  let r: RelayTestContext;
  let upstream: RealtimeMock;
  beforeAll(async () => {
    r = await startRelayTest({ env: { SHUTDOWN_GRACE_SECONDS: '0.3' } });
    upstream = await startRealtimeMock();
    await r.addChannel({ type: OPENAI, key: upstream.behaviour.apiKey, base_url: upstream.url, models: 'rt-shutdown' });
    await r.setPrice('rt-shutdown', 1, 1);
  });
  afterAll(async () => {
    await r?.close();
    await upstream?.close();
  });

  it('ends open sessions after the grace period, with what they used billed before the last flush', async () => {
    const session = accepted(
      await openRealtime(`${r.baseURL.replace(/^http/, 'ws')}/realtime?model=rt-shutdown`, {
        headers: { authorization: `Bearer ${r.apiKey}` },
      }),
    );
    await session.next('session.created');
    session.send({ type: 'response.create' });
    await session.next('response.done');
    await r.t.app.close();
    expect((await session.closed).code).toBe(1001);
    // No flush here: the shutdown itself must have written the log row.
    const row = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .where('model_name', '=', 'rt-shutdown')
      .executeTakeFirstOrThrow();
    expect(row.prompt_tokens).toBe(upstream.behaviour.usage.input_tokens);
  });
});
