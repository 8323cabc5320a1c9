import { providerType } from '../../src/domain/channel-types/registry.js';
import type { DialectName } from '../../src/platform/db/index.js';
import type { TaskPlatformPoller } from '../../src/relay/tasks/index.js';
import type { TestApp } from '../app.js';
import { type Answer, type GatewayUser, type Method, startTaskGatewayBase } from '../task-gateway.js';
import { type KlingApiStandIn, startKlingApi } from './kling-stand-in.js';
import { type SunoApiStandIn, startSunoApi } from './suno-stand-in.js';

export type { Answer, JsonBody } from '../task-gateway.js';

/**
 * A One Hub (test/task-gateway.ts) with a Suno channel and a Kling channel pointing at the
 * stand-ins, per-call prices, and two users with keys. Tests run the pollers' passes themselves;
 * `restart` starts a new server on the same database.
 */
export interface TaskGateway {
  url: string;
  server: TestApp;
  suno: SunoApiStandIn;
  kling: KlingApiStandIn;
  users: GatewayUser[];
  poller(name: 'suno' | 'kling'): TaskPlatformPoller;
  admin(method: Method, url: string, payload?: unknown): Promise<Answer>;
  /** A call to the gateway with a user's key (user 0 unless told) as a Bearer token. */
  call(path: string, body?: unknown, options?: { user?: number; key?: string }): Promise<Answer>;
  /** A management call with a user's session. */
  console(url: string, user?: number): Promise<Answer>;
  quota(user?: number): Promise<number>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const TASK_PRICES: Record<string, [vendor: 'suno' | 'kling', input: number]> = {
  'chirp-v3-5': ['suno', 2],
  'chirp-v3-0': ['suno', 1],
  suno_lyrics: ['suno', 0.5],
  'kling-video_kling-v1_std_5': ['kling', 3],
  'kling-video_kling-v1-6_pro_10': ['kling', 4],
};

/** The prices of one channel type's models, the type named by its slug. */
const pricesOf = (slug: 'suno' | 'kling'): Record<string, number> =>
  Object.fromEntries(
    Object.entries(TASK_PRICES)
      .filter(([, [vendor]]) => vendor === slug)
      .map(([model, [, input]]) => [model, input]),
  );

export async function startTaskGateway(
  dialect: DialectName = 'sqlite',
  env: Record<string, string> = {},
): Promise<TaskGateway> {
  const suno = await startSunoApi();
  const kling = await startKlingApi();
  const base = await startTaskGatewayBase({
    dialect,
    env,
    channels: [
      {
        name: 'suno stand-in',
        type: providerType('suno'),
        key: suno.key,
        baseUrl: suno.baseUrl,
        prices: pricesOf('suno'),
      },
      {
        name: 'kling stand-in',
        type: providerType('kling'),
        key: kling.key,
        baseUrl: kling.baseUrl,
        prices: pricesOf('kling'),
      },
    ],
    usernames: ['taskuser', 'otheruser'],
    keyName: 'task key',
    standIns: [suno, kling],
  });
  const userOf = (index: number) => base.users[index] as GatewayUser;
  return {
    get url() {
      return base.url;
    },
    get server() {
      return base.server;
    },
    suno,
    kling,
    users: base.users,
    poller: (name) => base.poller(name),
    admin: base.admin,
    call: (path, body, options = {}) =>
      base.call(path, body, { authorization: `Bearer ${options.key ?? userOf(options.user ?? 0).key}` }),
    async console(url, user = 0) {
      const { status, body } = await base.inject('GET', url, undefined, { cookie: userOf(user).cookie });
      return { status, body };
    },
    quota: (user = 0) => base.quota(userOf(user).id),
    restart: base.restart,
    close: base.close,
  };
}
