import { beforeAll } from 'vitest';
import type { DialectName } from '../../src/platform/db/index.js';
import { type RootAndPlain, useRootAndPlain } from './root-and-plain.js';

export interface ChannelAdmin extends RootAndPlain {
  /** The ids of the `channels` changes announced so far ('' for a change to all). */
  published: string[];
}

/**
 * The start of the channel API tests: the app with root and plain sessions, a `vip` group for
 * the group checks when asked for, and a record of the channel changes the other nodes would see.
 */
export function useChannelAdmin(dialect: DialectName, options: { vipGroup?: boolean } = {}): ChannelAdmin {
  const session = Object.assign(useRootAndPlain(dialect), { published: [] as string[] });
  beforeAll(async () => {
    if (options.vipGroup) await session.call('POST', '/api/user_group/', session.root, { symbol: 'vip', name: 'VIP' });
    session.t.services.changes.on('channels', (change) => {
      session.published.push(change.id === undefined ? '' : String(change.id));
    });
  });
  return session;
}
