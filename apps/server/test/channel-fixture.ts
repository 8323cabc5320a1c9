import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { DialectName } from '../src/platform/db/index.js';
import { caller } from './api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from './app.js';
import { type BillingMock, startBillingMock } from './mocks/billing-upstream.js';
import { createTestChannel } from './test-channel.js';

/** A running One Hub with a billing mock upstream, root's and a plain user's sessions. */
export interface ChannelFixture {
  t: TestApp;
  mock: BillingMock;
  root: string;
  plain: string;
  call: ReturnType<typeof caller>;
}

export async function startChannelFixture(dialect: DialectName): Promise<ChannelFixture> {
  const t = await startTestApp({ dialect });
  const mock = await startBillingMock();
  const root = await t.login('root', ROOT_PASSWORD);
  const { cookie: plain } = await t.createUser('plain');
  return { t, mock, root, plain, call: caller(t) };
}

export async function stopChannelFixture(fixture: ChannelFixture | undefined): Promise<void> {
  await fixture?.t.close();
  await fixture?.mock.close();
}

/** Creates an OpenAI-type channel pointing at the mock and returns its id. */
export async function addMockChannel(fixture: ChannelFixture, fields: Record<string, unknown>): Promise<number> {
  const { mock, call, root } = fixture;
  const created = await createTestChannel(mock, (path, body) => call('POST', path, root, body), fields);
  expect(created.statusCode, created.body).toBe(200);
  return created.json().data[0].id;
}

/**
 * Starts a channel fixture on `dialect` before the enclosing `describe`'s tests, resets the mock
 * after each and stops it at the end. The object is filled in once it runs: read it in hooks and tests.
 */
export function useChannelFixture(dialect: DialectName): ChannelFixture {
  const fixture = {} as ChannelFixture;
  beforeAll(async () => {
    Object.assign(fixture, await startChannelFixture(dialect));
  });
  afterAll(() => stopChannelFixture(fixture.t ? fixture : undefined));
  afterEach(() => fixture.mock?.reset());
  return fixture;
}
