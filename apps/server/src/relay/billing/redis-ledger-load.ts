import type { Redis } from 'ioredis';
import type { DatabaseHandle } from '../../platform/db/index.js';
import * as scripts from './redis-ledger-scripts.js';

const MAX_INIT_ATTEMPTS = 20;

/**
 * Puts a balance into Redis from the database (the INIT script): the stored value less what Redis
 * holds pending and open reservations (leases too) hold. Read again when a batch was written
 * meanwhile; a batch being written (or stranded) is written first by `flush`.
 */
export async function loadBalance(
  redis: Redis,
  handle: DatabaseHandle,
  key: (name: string) => string,
  kind: 'u' | 't',
  id: number,
  flush: () => Promise<void>,
): Promise<void> {
  for (let attempt = 0; attempt < MAX_INIT_ATTEMPTS; attempt++) {
    const generation = (await redis.get(key('gen'))) ?? '0';
    const stored = kind === 'u' ? await storedUser(handle, id) : await storedToken(handle, id);
    const field = kind === 'u' ? `u:${id}:spent` : `t:${id}`;
    const result = Number(
      await redis.eval(
        scripts.INIT,
        6,
        key(`${kind}:${id}`),
        key('res'),
        key('pending'),
        key('gen'),
        key('inflight'),
        // The balance's sum of open reservations.
        key(`${kind}h:${id}`),
        stored,
        field,
        kind,
        id,
        generation,
      ),
    );
    if (result === 1) return;
    // A batch is being written or just was: write any stranded batch, then read again.
    if (result === -1) await flush();
    await new Promise((resolve) => setTimeout(resolve, 5 * (attempt + 1)));
  }
  throw new Error('the shared quota ledger could not load a balance while batches were being written');
}

async function storedUser(handle: DatabaseHandle, id: number): Promise<number> {
  const row = await handle.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirst();
  return Number(row?.quota ?? 0);
}

async function storedToken(handle: DatabaseHandle, id: number): Promise<number> {
  const row = await handle.db.selectFrom('tokens').select('remain_quota').where('id', '=', id).executeTakeFirst();
  return Number(row?.remain_quota ?? 0);
}
