import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import {
  accepted,
  openRealtime,
  type RealtimeSession,
  refused,
} from '../../../test/providers/realtime/realtime-client.js';
import {
  type RealtimeMock,
  startRealtimeMock,
  DEFAULT_REALTIME_USAGE as USAGE,
} from '../../../test/providers/realtime/realtime-upstream.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

const MODEL = 'gpt-4o-realtime-preview';
const INPUT = 2.5;
const OUTPUT = 4;
const RATIOS = { cached_tokens: 0.5, input_audio_tokens: 8, output_audio_tokens: 4 };
const PRE_CONSUMED = 500;

/**
 * What one `response.done` with the mock's usage costs at MODEL's price: the totals at the input
 * and output ratios, each detail re-priced by the difference of its own ratio (billing/quota.ts).
 */
const RESPONSE_COST = Math.ceil(
  (USAGE.input_tokens +
    USAGE.input_token_details.cached_tokens * (RATIOS.cached_tokens - 1) +
    USAGE.input_token_details.audio_tokens * (RATIOS.input_audio_tokens - 1)) *
    INPUT +
    (USAGE.output_tokens + USAGE.output_token_details.audio_tokens * (RATIOS.output_audio_tokens - 1)) * OUTPUT,
);

async function consumeRows(r: RelayTestContext, userId: number) {
  await r.t.app.relay.flush();
  return r.t.database.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 2)
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();
}

/** Polls (bounded) until `check` holds: settlements and log rows are written off the session's path. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(availableDialects)('the realtime WebSocket relay on %s', (dialect) => {
  let r: RelayTestContext;
  let openai: RealtimeMock;
  let channelId: number;
  let wsBase: string;
  let userCount = 0;

  /** A new user with `quota` and an unlimited key (limits on the key when given). */
  const newUser = async (quota: number, keyFields: Record<string, unknown> = {}) => {
    const { id, cookie } = await r.t.createUser(`rt${dialect.slice(0, 2)}${++userCount}`);
    await r.admin('POST', `/api/user/quota/${id}`, { quota });
    return { id, key: await r.newKey(cookie, keyFields) };
  };
  const open = (key: string, model = MODEL, protocols: string[] = ['realtime']) =>
    openRealtime(`${wsBase}/realtime?model=${encodeURIComponent(model)}`, {
      headers: { authorization: `Bearer ${key}` },
      protocols,
    });
  /** Asks for one response and waits for its `response.done`. */
  const oneResponse = async (session: RealtimeSession) => {
    session.send({ type: 'response.create', response: { modalities: ['text'] } });
    return session.next('response.done');
  };

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    wsBase = r.baseURL.replace(/^http/, 'ws');
    openai = await startRealtimeMock();
    channelId = await r.addChannel({
      name: 'openai realtime',
      type: providerType('openai'),
      key: openai.behaviour.apiKey,
      base_url: openai.url,
      models: MODEL,
      priority: 10,
    });
    await r.setPrice(MODEL, INPUT, OUTPUT, { extra_ratios: RATIOS });
  });
  afterAll(async () => {
    await r?.close();
    await openai?.close();
  });

  it('relays a session both ways, text and binary, to OpenAI’s address with the channel’s key', async () => {
    const { key } = await newUser(1_000_000);
    const before = openai.connections.length;
    const session = accepted(await open(key));
    expect(session.protocol).toBe('realtime');
    expect(session.headers['x-request-id']).toMatch(/\w{10,}/);
    const created = await session.next('session.created');
    expect(created.session).toMatchObject({ object: 'realtime.session', model: MODEL });

    session.send({ type: 'session.update', session: { instructions: 'Be brief.' } });
    expect((await session.next('session.updated')).session).toEqual({ instructions: 'Be brief.' });
    const done = await oneResponse(session);
    expect(done.response).toMatchObject({ status: 'completed', usage: USAGE });
    const deltas = session.events.filter((event) => event.type === 'response.text.delta').map((event) => event.delta);
    expect(deltas.join('')).toBe('Hello from realtime.');

    const audio = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    session.socket.send(audio, { binary: true });
    await eventually(
      async () => session.binaries.length,
      (count) => count > 0,
    );
    expect(session.binaries[0]).toEqual(audio);

    const connection = openai.connections[before];
    expect(connection?.path).toBe('/v1/realtime');
    expect(connection?.query.get('model')).toBe(MODEL);
    expect(connection?.headers.authorization).toBe(`Bearer ${openai.behaviour.apiKey}`);
    expect(connection?.events.map((event) => event.type)).toEqual(['session.update', 'response.create']);
    session.socket.close(1000, 'bye');
    expect(await session.closed).toEqual({ code: 1000, reason: 'bye' });
    await eventually(
      async () => connection?.closed,
      (closed) => closed !== undefined,
    );
    expect(connection?.closed).toEqual({ code: 1000, reason: 'bye' });
  });

  it('bills each response.done exactly, one log row each with the channel, and returns the held quota at the close', async () => {
    // Enough for one response and the hold for the next: a hold not returned at the close would
    // leave too little for the second session below.
    const quota = RESPONSE_COST + PRE_CONSUMED + 300;
    const user = await newUser(quota);
    const session = accepted(await open(user.key));
    await session.next('session.created');
    await oneResponse(session);
    const rows = await eventually(
      () => consumeRows(r, user.id),
      (found) => found.length === 1,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      model_name: MODEL,
      quota: RESPONSE_COST,
      prompt_tokens: USAGE.input_tokens,
      completion_tokens: USAGE.output_tokens,
      channel_id: channelId,
    });
    const metadata = JSON.parse(String(rows[0]?.metadata)) as Record<string, number>;
    expect(metadata).toMatchObject({
      cached_tokens: USAGE.input_token_details.cached_tokens,
      cached_tokens_ratio: RATIOS.cached_tokens,
      input_audio_tokens: USAGE.input_token_details.audio_tokens,
      input_audio_tokens_ratio: RATIOS.input_audio_tokens,
      output_audio_tokens: USAGE.output_token_details.audio_tokens,
    });
    expect(await storedQuota(r, user.id)).toBe(quota - RESPONSE_COST);

    // The client closes: nothing more is billed and the hold goes back.
    session.socket.close();
    await session.closed;
    // The hold is returned once the upstream side has closed too: a new session opens (bounded wait).
    const again = await eventually(
      () => open(user.key),
      (attempt) => {
        if (!('socket' in attempt)) return false;
        attempt.socket.close();
        return true;
      },
    );
    accepted(again);
    await (again as RealtimeSession).closed;
    expect(await storedQuota(r, user.id)).toBe(quota - RESPONSE_COST);
    expect(await consumeRows(r, user.id)).toHaveLength(1);
  });

  it('settles when the upstream closes, and the client gets the upstream’s close code', async () => {
    const user = await newUser(1_000_000);
    const before = openai.connections.length;
    const session = accepted(await open(user.key));
    await session.next('session.created');
    await oneResponse(session);
    await oneResponse(session);
    openai.connections[before]?.socket?.close(4000, 'session expired');
    expect(await session.closed).toEqual({ code: 4000, reason: 'session expired' });
    const rows = await eventually(
      () => consumeRows(r, user.id),
      (found) => found.length === 2,
    );
    expect(rows.map((row) => row.quota)).toEqual([RESPONSE_COST, RESPONSE_COST]);
    expect(await storedQuota(r, user.id)).toBe(1_000_000 - 2 * RESPONSE_COST);
  });

  it('closes the session with an error event when the quota for the next response runs out', async () => {
    const quota = RESPONSE_COST + 100;
    const user = await newUser(quota);
    const session = accepted(await open(user.key));
    await session.next('session.created');
    await oneResponse(session);
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect((await session.closed).code).toBe(1008);
    expect(await storedQuota(r, user.id)).toBe(quota - RESPONSE_COST);
    // Now too poor for a session at all: refused before the upgrade.
    const refusal = refused(await open(user.key));
    expect(refusal.status).toBe(429);
    expect(refusal.body.error.code).toBe('insufficient_quota');
  });

  it('takes the key from the browser subprotocol and asks for the beta interface when the client does', async () => {
    const { key } = await newUser(1_000_000);
    const before = openai.connections.length;
    const session = accepted(
      await openRealtime(`${wsBase}/realtime?model=${MODEL}`, {
        protocols: ['realtime', `openai-insecure-api-key.${key}`, 'openai-beta.realtime-v1'],
      }),
    );
    // The key's subprotocol is never echoed back.
    expect(session.protocol).toBe('realtime');
    expect(JSON.stringify(session.headers)).not.toContain(key);
    await session.next('session.created');
    const connection = openai.connections[before];
    expect(connection?.headers['openai-beta']).toBe('realtime=v1');
    expect(connection?.headers.authorization).toBe(`Bearer ${openai.behaviour.apiKey}`);
    expect(connection?.headers['sec-websocket-protocol']).toBeUndefined();
    session.socket.close();
    await session.closed;
  });

  it('refuses a bad key with 401 and a missing model with 400 before any upgrade', async () => {
    const before = openai.connections.length;
    const badKey = refused(await open(`sk-${'x'.repeat(48)}`));
    expect(badKey.status).toBe(401);
    expect(badKey.body.error.type).toBe('authentication_error');
    const noKey = refused(await openRealtime(`${wsBase}/realtime?model=${MODEL}`, { protocols: ['realtime'] }));
    expect(noKey.status).toBe(401);

    const { key } = await newUser(1_000_000);
    const noModel = refused(await openRealtime(`${wsBase}/realtime`, { headers: { authorization: `Bearer ${key}` } }));
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatchObject({ code: 'model_name_required', param: 'model' });
    const unknown = refused(await open(key, 'no-such-realtime-model'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('model_not_found');
    const otherPath = refused(
      await openRealtime(`${wsBase}/realtime/other?model=${MODEL}`, { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(otherPath.status).toBe(404);
    expect(openai.connections.length).toBe(before);
  });

  it('applies the key’s model limit and concurrency to sessions', async () => {
    const limited = await newUser(1_000_000, {
      setting: { limits: { limit_model_setting: { enabled: true, models: ['gpt-4o-mini'] } } },
    });
    const forbidden = refused(await open(limited.key));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('model_not_allowed');

    const single = await newUser(1_000_000, { setting: { limits: { concurrency: 1 } } });
    const first = accepted(await open(single.key));
    await first.next('session.created');
    const second = refused(await open(single.key));
    expect(second.status).toBe(429);
    first.socket.close();
    await first.closed;
    // The slot is released once the session has ended and settled.
    const third = await eventually(
      () => open(single.key),
      (attempt) => {
        if (!('socket' in attempt)) return false;
        attempt.socket.close();
        return true;
      },
    );
    accepted(third);
  });
});
