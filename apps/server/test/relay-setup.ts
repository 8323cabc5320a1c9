import OpenAI from 'openai';
import { providerType } from '../src/domain/channel-types/registry.js';
import { listenOnLoopback, ROOT_TOKEN, startTestApp, type TestApp, type TestAppOptions } from './app.js';
import { type MockUpstream, startMockUpstream } from './mocks/openai-upstream.js';

export interface RelayTestContext {
  t: TestApp;
  upstream: MockUpstream;
  baseURL: string;
  /** The relay client of a user with `quota`, holding an unlimited key. */
  client: OpenAI;
  apiKey: string;
  userId: number;
  admin(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: { success: boolean; message: string; data?: unknown } }>;
  addChannel(fields: Record<string, unknown>): Promise<number>;
  /** Replaces the price of `model` (per-token ratios, or per call with `type: 'times'`). */
  setPrice(model: string, input: number, output: number, extra?: Record<string, unknown>): Promise<void>;
  newKey(cookie: string, fields?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * Another node (or the same one after a restart) on `r`'s database, so with its channels, prices
 * and users, on a loopback port; `baseURL` is its `/v1`. Close it before `r`, which drops the database.
 */
export async function startSecondNode(
  r: Pick<RelayTestContext, 't'>,
  options: Pick<TestAppOptions, 'cache' | 'env'> = {},
): Promise<{ t: TestApp; baseURL: string }> {
  const t = await startTestApp({ ...options, database: r.t.testDatabase });
  try {
    return { t, baseURL: `${await listenOnLoopback(t)}/v1` };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** A running One Hub on a loopback port with one mock OpenAI channel, a price, a user and a key. */
export async function startRelayTest(options: TestAppOptions & { quota?: number } = {}): Promise<RelayTestContext> {
  const t = await startTestApp(options);
  const upstream = await startMockUpstream();
  const baseURL = `${await listenOnLoopback(t)}/v1`;

  const admin: RelayTestContext['admin'] = async (method, url, payload) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { authorization: ROOT_TOKEN },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const addChannel = async (fields: Record<string, unknown>) => {
    const created = await admin('POST', '/api/channel/', {
      name: 'mock',
      type: providerType('openai'),
      key: upstream.behaviour.apiKey,
      base_url: upstream.url,
      models: 'gpt-4o-mini,text-embedding-3-small,omni-moderation-latest,gpt-3.5-turbo-instruct',
      group: 'default',
      ...fields,
    });
    if (created.status !== 200) throw new Error(`channel: ${JSON.stringify(created.body)}`);
    const list = await admin('GET', '/api/channel/?order=-id&size=1');
    return ((list.body.data as { data: Array<{ id: number }> }).data[0] as { id: number }).id;
  };
  const newKey = async (cookie: string, fields: Record<string, unknown> = {}) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { cookie },
      payload: { name: 'test key', expired_time: -1, remain_quota: 0, unlimited_quota: true, ...fields },
    });
    if (response.statusCode !== 200) throw new Error(`token: ${response.body}`);
    return (response.json() as { data: { key: string } }).data.key;
  };

  const setPrice: RelayTestContext['setPrice'] = async (model, input, output, extra = {}) => {
    await admin('DELETE', `/api/prices/single/${encodeURIComponent(model)}`);
    const price = await admin('POST', '/api/prices/single', {
      model,
      type: 'tokens',
      channel_type: providerType('openai'),
      input,
      output,
      locked: false,
      ...extra,
    });
    if (price.status !== 200) throw new Error(`price: ${JSON.stringify(price.body)}`);
  };

  await addChannel({ priority: 5 });
  for (const [model, input, output] of [
    ['gpt-4o-mini', 1, 2],
    ['text-embedding-3-small', 0.5, 0],
    ['omni-moderation-latest', 0, 0],
    ['gpt-3.5-turbo-instruct', 1, 1],
  ] as const) {
    await setPrice(model, input, output);
  }
  const { id: userId, cookie } = await t.createUser('relayuser');
  if (options.quota !== 0) await admin('POST', `/api/user/quota/${userId}`, { quota: options.quota ?? 1_000_000 });
  const apiKey = await newKey(cookie);
  const client = new OpenAI({ apiKey, baseURL, maxRetries: 0 });

  return {
    t,
    upstream,
    baseURL,
    client,
    apiKey,
    userId,
    admin,
    addChannel,
    setPrice,
    newKey,
    async close() {
      await t.close();
      await upstream.close();
    },
  };
}

/** The user's stored quota after pending settlements are written. */
export async function storedQuota(context: RelayTestContext, userId = context.userId): Promise<number> {
  await context.t.app.relay.flush();
  const user = await context.t.services.userRepository.findById(userId);
  return Number(user?.quota);
}

/** The newest consume log row (after pending rows are written). */
export async function lastConsumeLog(context: RelayTestContext) {
  await context.t.app.relay.flush();
  return context.t.database.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 2)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

/** A price for `startRelayWithChannel`: per-token input and output ratios, and any other fields. */
export type PriceRow = readonly [input: number, output: number, extra?: Record<string, unknown>];

/** `startRelayTest`, plus one more mock channel (`channel` over the defaults) and the prices of its models. */
export async function startRelayWithChannel(
  channel: Record<string, unknown>,
  prices: Record<string, PriceRow>,
  options: TestAppOptions & { quota?: number } = {},
): Promise<RelayTestContext> {
  const r = await startRelayTest(options);
  await r.addChannel(channel);
  for (const [model, [input, output, extra]] of Object.entries(prices)) await r.setPrice(model, input, output, extra);
  return r;
}

/** A raw POST to the relay with the user's key, for bodies an SDK would refuse to send. */
export function relayPost(r: RelayTestContext, path: string, body: string | FormData, contentType?: string) {
  return fetch(`${r.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${r.apiKey}`, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
}
