import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AssembledServer, assembleServer } from '../../src/assemble.js';
import { loadConfig } from '../../src/config.js';
import type { TaskPlatformPoller } from '../../src/jobs/task-poll-job.js';
import { createMemoryCache } from '../../src/platform/cache/index.js';
import type { DialectName } from '../../src/platform/db/index.js';
import { createLogger } from '../../src/platform/logger.js';
import { ROOT_PASSWORD, ROOT_TOKEN, sessionCookie } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../databases.js';
import { type MidjourneyProxyStandIn, startMidjourneyProxy } from './proxy-stand-in.js';

/** A parsed JSON answer, as `JSON.parse` gives it: the tests assert on its shape. */
export type JsonBody = ReturnType<typeof JSON.parse>;

/**
 * A One Hub on a loopback port with one Midjourney channel pointing at the proxy stand-in, per-call
 * prices for the actions the tests use, and a user with a key. The node is a "slave" so no poll
 * job runs on its own: tests run the Midjourney poller's pass themselves. `restart` closes the
 * server and starts a new one on the same database (and the same stand-in).
 */
export interface MjGateway {
  url: string;
  server: AssembledServer;
  proxy: MidjourneyProxyStandIn;
  channelId: number;
  userId: number;
  key: string;
  cookie: string;
  poller(): TaskPlatformPoller;
  admin(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: JsonBody }>;
  /** A call to the gateway's `/mj…` routes with the user's key in `mj-api-secret`. */
  mj(path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: JsonBody }>;
  quota(): Promise<number>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const MJ_PRICES: Record<string, number> = {
  mj_imagine: 2,
  mj_upscale: 1,
  mj_relax_imagine: 0.5,
  mj_turbo_imagine: 3,
  mj_inpaint: 0,
  mj_upload: 0,
};

async function boot(database: TestDatabase, env: Record<string, string>) {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-mj-'));
  const config = loadConfig({
    SQLITE_PATH: database.target.sqlitePath || join(dataDirectory, 'unused.db'),
    SQL_DSN: database.target.sqlDsn,
    SESSION_SECRET: 'test-session-secret-0123456789',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_QUOTA: '0',
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'silent',
    CRITICAL_RATE_LIMIT: '100000',
    GLOBAL_API_RATE_LIMIT: '0',
    GLOBAL_WEB_RATE_LIMIT: '0',
    NODE_TYPE: 'slave',
    ...env,
  });
  const server = await assembleServer(config, createLogger('silent'), {
    cache: createMemoryCache(),
    consoleDirectory: join(dataDirectory, 'no-console'),
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, url: `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}` };
}

export async function startMjGateway(
  dialect: DialectName = 'sqlite',
  env: Record<string, string> = {},
): Promise<MjGateway> {
  const database = await createTestDatabase(dialect);
  const proxy = await startMidjourneyProxy();
  let booted = await boot(database, env);
  const inject = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = {}) => {
    const response = await booted.server.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json(), response };
  };
  const admin: MjGateway['admin'] = (method, url, payload) =>
    inject(method, url, payload, { authorization: ROOT_TOKEN });

  const channel = await admin('POST', '/api/channel/', {
    name: 'mj stand-in',
    type: 34,
    key: proxy.secret,
    base_url: proxy.baseUrl,
    models: Object.keys(MJ_PRICES).join(','),
    group: 'default',
  });
  if (channel.status !== 200) throw new Error(`channel: ${JSON.stringify(channel.body)}`);
  const listed = await admin('GET', '/api/channel/?order=-id&size=1');
  const channelId = listed.body.data.data[0].id as number;
  for (const [model, input] of Object.entries(MJ_PRICES)) {
    await admin('DELETE', `/api/prices/single/${model}`);
    const price = await admin('POST', '/api/prices/single', {
      model,
      type: 'times',
      channel_type: 34,
      input,
      output: input,
      locked: false,
    });
    if (price.status !== 200) throw new Error(`price: ${JSON.stringify(price.body)}`);
  }
  const registered = await inject('POST', '/api/user/register', { username: 'mjuser', password: 'password-123' });
  const userId = registered.body.data.id as number;
  await admin('POST', `/api/user/quota/${userId}`, { quota: 1_000_000 });
  const login = await inject('POST', '/api/user/login', { username: 'mjuser', password: 'password-123' });
  const cookie = sessionCookie(login.response);
  const token = await inject(
    'POST',
    '/api/token/',
    { name: 'mj key', expired_time: -1, remain_quota: 0, unlimited_quota: true },
    { cookie },
  );
  const key = token.body.data.key as string;

  const gateway: MjGateway = {
    get url() {
      return booted.url;
    },
    get server() {
      return booted.server;
    },
    proxy,
    channelId,
    userId,
    key,
    cookie,
    poller() {
      const poller = booted.server.app.relay.taskPollers.find((candidate) => candidate.name === 'midjourney');
      if (!poller) throw new Error('no midjourney poller');
      return poller;
    },
    admin,
    async mj(path, body, headers = {}) {
      const response = await fetch(`${booted.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'mj-api-secret': key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async quota() {
      await booted.server.app.relay.flush();
      const user = await booted.server.services.userRepository.findById(userId);
      return Number(user?.quota);
    },
    async restart() {
      await booted.server.close();
      booted = await boot(database, env);
    },
    async close() {
      await booted.server.close();
      await proxy.close();
      await database.drop();
    },
  };
  return gateway;
}
