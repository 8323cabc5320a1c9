import type { LightMyRequestResponse } from 'fastify';
import { providerType } from '../../src/domain/channel-types/registry.js';
import type { TestApp } from '../app.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API as the holder of `cookie` (anonymous when undefined). */
export function caller(t: TestApp) {
  return (method: Method, url: string, cookie?: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A valid creation body; override what the test is about. */
export function channelBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'channel',
    type: providerType('openai'),
    key: 'sk-test-key',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    ...overrides,
  };
}

export async function channelCount(t: TestApp): Promise<number> {
  const row = await t.database.db
    .selectFrom('channels')
    .select((expression) => expression.fn.countAll().as('total'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
