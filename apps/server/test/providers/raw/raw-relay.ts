import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { providerType } from '../../../src/domain/channel-types/registry.js';
import type { DialectName } from '../../../src/platform/db/index.js';
import { ROOT_PASSWORD } from '../../app.js';
import { type RelayTestContext, startRelayTest } from '../../relay-setup.js';
import { type StatefulMock, startStatefulMock } from './mock-stateful.js';

/**
 * A running One Hub for the raw pass-through tests: the stateful-API mock behind an OpenAI, an
 * Azure and an Azure v1 channel, an Anthropic channel (which cannot serve these APIs), an OpenAI
 * channel whose upstream is down, and an administrator's key (only administrators may name a
 * channel with `#<id>`).
 */
export interface RawRelay {
  r: RelayTestContext;
  mock: StatefulMock;
  rootKey: string;
  rootUserId: number;
  channels: { openai: number; azure: number; azureV1: number; claude: number; down: number };
  /** The OpenAI SDK on the relay with the administrator's key naming `channel`. */
  client(channel?: number): OpenAI;
  close(): Promise<void>;
}

/** A loopback address nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export async function startRawRelay(dialect: DialectName = 'sqlite'): Promise<RawRelay> {
  const r = await startRelayTest({ dialect });
  const mock = await startStatefulMock();
  const key = mock.behaviour.apiKey;
  const common = { key, base_url: mock.url, models: 'gpt-4o-mini', group: 'default' };
  const channels = {
    openai: await r.addChannel({ ...common, name: 'openai files', type: providerType('openai') }),
    azure: await r.addChannel({ ...common, name: 'azure files', type: providerType('azure'), other: '2024-10-21' }),
    azureV1: await r.addChannel({
      ...common,
      name: 'azure v1 files',
      type: providerType('azure-v1'),
      other: 'preview',
    }),
    claude: await r.addChannel({
      ...common,
      name: 'claude',
      type: providerType('anthropic'),
      models: 'claude-3-5-haiku-latest',
    }),
    down: await r.addChannel({ ...common, name: 'down', type: providerType('openai'), base_url: await closedPort() }),
  };
  const cookie = await r.t.login('root', ROOT_PASSWORD);
  const rootKey = await r.newKey(cookie);
  const root = await r.t.services.userRepository.findByUsername('root');
  return {
    r,
    mock,
    rootKey,
    rootUserId: Number(root?.id),
    channels,
    client: (channel) =>
      new OpenAI({
        apiKey: channel === undefined ? rootKey : `${rootKey}#${channel}`,
        baseURL: r.baseURL,
        maxRetries: 0,
      }),
    async close() {
      await r.close();
      await mock.close();
    },
  };
}

/** The consume log rows of `userId`, oldest first, once pending rows are written. */
export async function consumeRows(r: RelayTestContext, userId: number) {
  await r.t.app.relay.flush();
  return r.t.database.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 2)
    .where('user_id', '=', userId)
    .orderBy('id', 'asc')
    .execute();
}
