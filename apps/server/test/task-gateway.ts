import type { DialectName } from '../src/platform/db/index.js';
import type { TaskPlatformPoller } from '../src/relay/tasks/index.js';
import { listenOnLoopback, ROOT_TOKEN, startTestApp, type TestApp } from './app.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

/**
 * The part the asynchronous-task test gateways (Midjourney in test/midjourney, Suno and Kling in
 * test/tasks) share: a One Hub on a loopback port as a "slave" node, so no poll job runs on its own
 * and tests run the pollers' passes themselves; channels pointing at the stand-ins, with per-call
 * prices; users with quota, a session and a key. `restart` closes the server and starts a new one
 * on the same database (and the same stand-ins).
 */

/** A parsed JSON answer, as `JSON.parse` gives it: the tests assert on its shape. */
export type JsonBody = ReturnType<typeof JSON.parse>;

export interface Answer {
  status: number;
  body: JsonBody;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface GatewayChannel {
  name: string;
  type: number;
  key: string;
  baseUrl: string;
  /** The channel's models, each with its per-call price. */
  prices: Record<string, number>;
}

export interface GatewayUser {
  id: number;
  key: string;
  cookie: string;
}

export interface GatewaySetup {
  dialect: DialectName;
  env: Record<string, string>;
  channels: GatewayChannel[];
  usernames: string[];
  /** What the users' keys are named. */
  keyName: string;
  /** Closed with the gateway. */
  standIns: Array<{ close(): Promise<void> }>;
}

export interface TaskGatewayBase {
  readonly url: string;
  readonly server: TestApp;
  /** The channels' ids, in the order of the setup's channels. */
  channelIds: number[];
  users: GatewayUser[];
  inject(method: Method, url: string, payload?: unknown, headers?: Record<string, string>): Promise<Answer>;
  admin(method: Method, url: string, payload?: unknown): Promise<Answer>;
  /** A call over HTTP: a GET without a body, a JSON POST with one. */
  call(path: string, body: unknown, headers: Record<string, string>): Promise<Answer>;
  poller(name: string): TaskPlatformPoller;
  /** The user's balance once the relay's pending charges are written. */
  quota(userId: number): Promise<number>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server on a loopback port, on `database` (left for the gateway to drop). With REDIS_CONN_STRING
 * in `env` it uses that Redis as production does (balances, budget windows), under the database's
 * own namespace.
 */
async function boot(database: TestDatabase, env: Record<string, string>) {
  const server = await startTestApp({
    database,
    env: { NODE_TYPE: 'slave', ...env },
    ...(env.REDIS_CONN_STRING ? { cache: 'configured' as const } : {}),
  });
  return { server, url: await listenOnLoopback(server) };
}

const must = (answer: Answer & { what: string }): Answer => {
  if (answer.status !== 200) throw new Error(`${answer.what}: ${JSON.stringify(answer.body)}`);
  return answer;
};

export async function startTaskGatewayBase(setup: GatewaySetup): Promise<TaskGatewayBase> {
  const database = await createTestDatabase(setup.dialect);
  let booted = await boot(database, setup.env);
  const send = async (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await booted.server.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json(), response };
  };
  const admin = (method: Method, url: string, payload?: unknown) =>
    send(method, url, payload, { authorization: ROOT_TOKEN });

  const channelIds: number[] = [];
  for (const channel of setup.channels) {
    const created = await admin('POST', '/api/channel/', {
      name: channel.name,
      type: channel.type,
      key: channel.key,
      base_url: channel.baseUrl,
      models: Object.keys(channel.prices).join(','),
      group: 'default',
    });
    must({ ...created, what: `channel ${channel.name}` });
    const listed = await admin('GET', '/api/channel/?order=-id&size=1');
    channelIds.push(listed.body.data.data[0].id as number);
    for (const [model, input] of Object.entries(channel.prices)) {
      await admin('DELETE', `/api/prices/single/${model}`);
      const price = await admin('POST', '/api/prices/single', {
        model,
        type: 'times',
        channel_type: channel.type,
        input,
        output: input,
        locked: false,
      });
      must({ ...price, what: `price ${model}` });
    }
  }
  const users: GatewayUser[] = [];
  for (const username of setup.usernames) {
    const { id, cookie } = await booted.server.createUser(username);
    await admin('POST', `/api/user/quota/${id}`, { quota: 1_000_000 });
    const key = { name: setup.keyName, expired_time: -1, remain_quota: 0, unlimited_quota: true };
    const token = await send('POST', '/api/token/', key, { cookie });
    users.push({ id, key: token.body.data.key as string, cookie });
  }

  return {
    get url() {
      return booted.url;
    },
    get server() {
      return booted.server;
    },
    channelIds,
    users,
    inject: send,
    admin,
    async call(path, body, headers) {
      const response = await fetch(`${booted.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    poller(name) {
      const poller = booted.server.app.relay.taskPollers.find((candidate) => candidate.name === name);
      if (!poller) throw new Error(`no ${name} poller`);
      return poller;
    },
    async quota(userId) {
      await booted.server.app.relay.flush();
      const row = await booted.server.services.userRepository.findById(userId);
      return Number(row?.quota);
    },
    async restart() {
      await booted.server.close();
      booted = await boot(database, setup.env);
    },
    async close() {
      await booted.server.close();
      for (const standIn of setup.standIns) await standIn.close();
      await database.drop();
    },
  };
}
