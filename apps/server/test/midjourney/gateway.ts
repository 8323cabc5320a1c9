import { providerType } from '../../src/domain/channel-types/registry.js';
import type { DialectName } from '../../src/platform/db/index.js';
import type { TaskPlatformPoller } from '../../src/relay/tasks/index.js';
import type { TestApp } from '../app.js';
import { type Answer, type Method, startTaskGatewayBase } from '../task-gateway.js';
import { type MidjourneyProxyStandIn, startMidjourneyProxy } from './proxy-stand-in.js';

export type { JsonBody } from '../task-gateway.js';

/**
 * A One Hub (test/task-gateway.ts) with one Midjourney channel pointing at the proxy stand-in,
 * per-call prices for the actions the tests use, and a user with a key. Tests run the Midjourney
 * poller's pass themselves; `restart` starts a new server on the same database and stand-in.
 */
export interface MjGateway {
  url: string;
  server: TestApp;
  proxy: MidjourneyProxyStandIn;
  channelId: number;
  userId: number;
  key: string;
  cookie: string;
  poller(): TaskPlatformPoller;
  admin(method: Method, url: string, payload?: unknown): Promise<Answer>;
  /** A call to the gateway's `/mj…` routes with the user's key in `mj-api-secret`. */
  mj(path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  quota(): Promise<number>;
  /** The path and query of the callback address the proxy was last given (signed for its channel). */
  notifyPath(): string;
  /** The path and query of a task's image link, as the task's view hands it out (signed). */
  imagePath(mjId: string): Promise<string>;
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

export async function startMjGateway(
  dialect: DialectName = 'sqlite',
  env: Record<string, string> = {},
): Promise<MjGateway> {
  const proxy = await startMidjourneyProxy();
  const base = await startTaskGatewayBase({
    dialect,
    env,
    channels: [
      {
        name: 'mj stand-in',
        type: providerType('midjourney'),
        key: proxy.secret,
        baseUrl: proxy.baseUrl,
        prices: MJ_PRICES,
      },
    ],
    usernames: ['mjuser'],
    keyName: 'mj key',
    standIns: [proxy],
  });
  const [user] = base.users as [{ id: number; key: string; cookie: string }];
  return {
    get url() {
      return base.url;
    },
    get server() {
      return base.server;
    },
    proxy,
    channelId: base.channelIds[0] as number,
    userId: user.id,
    key: user.key,
    cookie: user.cookie,
    poller: () => base.poller('midjourney'),
    admin: base.admin,
    mj: (path, body, headers = {}) => base.call(path, body, { 'mj-api-secret': user.key, ...headers }),
    quota: () => base.quota(user.id),
    notifyPath() {
      const hook = proxy.received.findLast((call) => typeof call.body?.notifyHook === 'string')?.body?.notifyHook;
      if (typeof hook !== 'string') throw new Error('the proxy was given no notifyHook');
      const url = new URL(hook);
      return `${url.pathname}${url.search}`;
    },
    async imagePath(mjId) {
      const task = await base.call(`/mj/task/${mjId}/fetch`, undefined, { 'mj-api-secret': user.key });
      const url = new URL(String(task.body.imageUrl));
      return `${url.pathname}${url.search}`;
    },
    restart: base.restart,
    close: base.close,
  };
}
