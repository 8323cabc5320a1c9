import type { lookup } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkSigner } from '../../../platform/signed-links.js';
import { createAddressGuard } from '../../transport/address-guard.js';
import type { MidjourneyRepository, MidjourneyRow } from './repo.js';
import { MidjourneyTracker } from './tracker.js';
import { CLIENT_HOOK_KEY } from './view.js';

/**
 * A client's notifyHook whose name looks public but resolves to a private address is refused when
 * the post connects (the address guard's connect-time check), unless MjNotifyAllowPrivate allows it.
 * The resolver is the test's own, as a hostile DNS answer would be.
 */

const resolver = ((hostname: string, _options: object, callback: (...args: unknown[]) => void) => {
  if (hostname === 'hooks.example.com') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
}) as unknown as typeof lookup;

function row(hook: string): MidjourneyRow {
  return {
    id: 1,
    code: 1,
    user_id: 1,
    action: 'IMAGINE',
    mj_id: '1700000000000001',
    prompt: 'x',
    prompt_en: '',
    description: '',
    state: '',
    submit_time: Date.now(),
    start_time: 0,
    finish_time: 0,
    image_url: '',
    status: 'SUBMITTED',
    progress: '0%',
    fail_reason: '',
    channel_id: 1,
    quota: 0,
    buttons: '[]',
    properties: JSON.stringify({ [CLIENT_HOOK_KEY]: hook }),
    mode: 'fast',
    token_id: 1,
    budget_use: null,
  };
}

describe('posting to a client notifyHook', () => {
  let hook: Server;
  let port = 0;
  const heard: string[] = [];
  beforeAll(async () => {
    hook = createServer((request, response) => {
      heard.push(`${request.method} ${request.url}`);
      request.resume();
      response.end('ok');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    port = (hook.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => hook.close(resolve));
  });

  function tracker(allowPrivate: boolean) {
    const warnings: string[] = [];
    const guard = createAddressGuard(() => allowPrivate, resolver);
    const tracked = new MidjourneyTracker({
      repo: { updateUnfinished: async () => true } as unknown as MidjourneyRepository,
      refunds: {} as never,
      options: { getBoolean: () => true, get: () => '' },
      links: createLinkSigner('test secret'),
      guards: { hooks: guard },
      logger: { warn: (fields: object) => void warnings.push(JSON.stringify(fields)) },
    });
    return { tracked, warnings, guard };
  }

  it('refuses, at connect time, a public-looking name that resolves to loopback', async () => {
    const { tracked, warnings, guard } = tracker(false);
    try {
      expect(await tracked.apply(row(`http://hooks.example.com:${port}/refused`), { progress: '10%' })).toBe(true);
      await expect.poll(() => warnings.length).toBe(1);
      expect(warnings[0]).toContain('private');
      expect(heard).not.toContain('POST /refused');
    } finally {
      await guard.close();
    }
  });

  it('posts there when private addresses are allowed', async () => {
    const { tracked, warnings, guard } = tracker(true);
    try {
      await tracked.apply(row(`http://hooks.example.com:${port}/allowed`), { progress: '10%' });
      await expect.poll(() => heard.includes('POST /allowed')).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      await guard.close();
    }
  });
});
