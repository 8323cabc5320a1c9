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
import { type KlingApiStandIn, startKlingApi } from './kling-stand-in.js';
import { type SunoApiStandIn, startSunoApi } from './suno-stand-in.js';

/** A parsed JSON answer: the tests assert on its shape. */
export type JsonBody = ReturnType<typeof JSON.parse>;

/**
 * A One Hub on a loopback port with a Suno channel and a Kling channel pointing at the stand-ins,
 * per-call prices, and two users with keys. The node is a "slave", so no poll job runs on its own:
 * tests run the pollers' passes themselves. `restart` starts a new server on the same database.
 */
export interface TaskGateway {
  url: string;
  server: AssembledServer;
  suno: SunoApiStandIn;
  kling: KlingApiStandIn;
  users: Array<{ id: number; key: string; cookie: string }>;
  poller(name: 'suno' | 'kling'): TaskPlatformPoller;
  admin(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Answer>;
  /** A call to the gateway with a user's key (user 0 unless told) as a Bearer token. */
  call(path: string, body?: unknown, options?: { user?: number; key?: string }): Promise<Answer>;
  /** A management call with a user's session. */
  console(url: string, user?: number): Promise<Answer>;
  quota(user?: number): Promise<number>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body: JsonBody;
}

export const TASK_PRICES: Record<string, [channelType: number, input: number]> = {
  'chirp-v3-5': [41, 2],
  'chirp-v3-0': [41, 1],
  suno_lyrics: [41, 0.5],
  'kling-video_kling-v1_std_5': [53, 3],
  'kling-video_kling-v1-6_pro_10': [53, 4],
};

async function boot(database: TestDatabase, env: Record<string, string>) {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-tasks-'));
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

async function toAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export async function startTaskGateway(
  dialect: DialectName = 'sqlite',
  env: Record<string, string> = {},
): Promise<TaskGateway> {
  const database = await createTestDatabase(dialect);
  const suno = await startSunoApi();
  const kling = await startKlingApi();
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
  const admin: TaskGateway['admin'] = (method, url, payload) =>
    inject(method, url, payload, { authorization: ROOT_TOKEN });

  const channels: Array<[string, number, string, string]> = [
    ['suno stand-in', 41, suno.key, suno.baseUrl],
    ['kling stand-in', 53, kling.key, kling.baseUrl],
  ];
  for (const [name, type, key, baseUrl] of channels) {
    const models = Object.entries(TASK_PRICES)
      .filter(([, [channelType]]) => channelType === type)
      .map(([model]) => model);
    const created = await admin('POST', '/api/channel/', {
      name,
      type,
      key,
      base_url: baseUrl,
      models: models.join(','),
      group: 'default',
    });
    if (created.status !== 200) throw new Error(`channel: ${JSON.stringify(created.body)}`);
  }
  for (const [model, [channelType, input]] of Object.entries(TASK_PRICES)) {
    await admin('DELETE', `/api/prices/single/${model}`);
    const price = await admin('POST', '/api/prices/single', {
      model,
      type: 'times',
      channel_type: channelType,
      input,
      output: input,
      locked: false,
    });
    if (price.status !== 200) throw new Error(`price: ${JSON.stringify(price.body)}`);
  }
  const users: TaskGateway['users'] = [];
  for (const username of ['taskuser', 'otheruser']) {
    const registered = await inject('POST', '/api/user/register', { username, password: 'password-123' });
    const id = registered.body.data.id as number;
    await admin('POST', `/api/user/quota/${id}`, { quota: 1_000_000 });
    const login = await inject('POST', '/api/user/login', { username, password: 'password-123' });
    const cookie = sessionCookie(login.response);
    const token = await inject(
      'POST',
      '/api/token/',
      { name: 'task key', expired_time: -1, remain_quota: 0, unlimited_quota: true },
      { cookie },
    );
    users.push({ id, key: token.body.data.key as string, cookie });
  }

  const gateway: TaskGateway = {
    get url() {
      return booted.url;
    },
    get server() {
      return booted.server;
    },
    suno,
    kling,
    users,
    poller(name) {
      const poller = booted.server.app.relay.taskPollers.find((candidate) => candidate.name === name);
      if (!poller) throw new Error(`no ${name} poller`);
      return poller;
    },
    admin,
    async call(path, body, options = {}) {
      const key = options.key ?? (users[options.user ?? 0] as { key: string }).key;
      const response = await fetch(`${booted.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return toAnswer(response);
    },
    async console(url, user = 0) {
      const answer = await inject('GET', url, undefined, { cookie: (users[user] as { cookie: string }).cookie });
      return { status: answer.status, body: answer.body };
    },
    async quota(user = 0) {
      await booted.server.app.relay.flush();
      const row = await booted.server.services.userRepository.findById((users[user] as { id: number }).id);
      return Number(row?.quota);
    },
    async restart() {
      await booted.server.close();
      booted = await boot(database, env);
    },
    async close() {
      await booted.server.close();
      await suno.close();
      await kling.close();
      await database.drop();
    },
  };
  return gateway;
}
