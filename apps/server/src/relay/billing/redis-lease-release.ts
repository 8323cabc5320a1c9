import type { Redis } from 'ioredis';
import type { LeaseSpend } from './journal-replay.js';
import { RELEASE_LEASE, STALE_LEASE_MS } from './redis-lease-scripts.js';

/** A lease as its record in the reservations hash names it. */
interface LeaseRecord {
  id: string;
  user: string;
  token: string;
  journal: string;
  unlimited: string;
}

/**
 * After a journal's replay committed: gives back every balance lease its node held in Redis, less
 * what the replay wrote for it (its spend beyond the lease mark). Each lease goes once (the script
 * deletes its record in the same step), so a replay run again gives nothing back twice.
 */
export async function releaseLeases(
  redis: Redis,
  prefix: string,
  journalIds: readonly string[],
  spent: LeaseSpend,
): Promise<number> {
  if (journalIds.length === 0) return 0;
  const journals = new Set(journalIds);
  const released = await release(
    redis,
    prefix,
    (lease) => (journals.has(lease.journal) ? spentOn(lease, spent) : undefined),
    '',
  );
  // Those nodes renew nothing any more: their last renewal need not be kept.
  await redis.hdel(`${prefix}lease-nodes`, ...journalIds);
  return released;
}

/**
 * After an administrator changed a user's balance (or a key's quota): gives back the leases on it
 * of nodes that renewed nothing for STALE_LEASE_MS, whose journal is then taken as lost (a replay
 * found later still charges what it finds: redis-lease-scripts.ts). Without this, such a lease
 * would hold its slice of the balance for good.
 */
export function releaseDeadLeases(
  redis: Redis,
  prefix: string,
  payer: { userId: number } | { tokenId: number },
): Promise<number> {
  const matches = (lease: LeaseRecord) =>
    'userId' in payer ? lease.user === String(payer.userId) : lease.token === String(payer.tokenId);
  return release(redis, prefix, (lease) => (matches(lease) ? 0 : undefined), STALE_LEASE_MS);
}

function spentOn(lease: LeaseRecord, spent: LeaseSpend): number {
  return spent.get(`${lease.journal}|${lease.user}|${lease.token}|${lease.unlimited}`) ?? 0;
}

/** Runs RELEASE_LEASE on every lease `spentOf` answers a spend for; → how many came back. */
async function release(
  redis: Redis,
  prefix: string,
  spentOf: (lease: LeaseRecord) => number | undefined,
  staleMs: number | '',
): Promise<number> {
  let released = 0;
  for (const [id, record] of Object.entries(await redis.hgetall(`${prefix}res`))) {
    const match = /^(\d+)\|(\d+)\|\d+\|\d+\|L:(.+):(\d+)$/.exec(record);
    if (!match) continue;
    const [, user, token, journal, unlimited] = match as unknown as [string, string, string, string, string];
    const spent = spentOf({ id, user, token, journal, unlimited });
    if (spent === undefined) continue;
    const back = await redis.eval(
      RELEASE_LEASE,
      6,
      `${prefix}u:${user}`,
      `${prefix}t:${token}`,
      `${prefix}res`,
      `${prefix}uh:${user}`,
      `${prefix}th:${token}`,
      `${prefix}lease-nodes`,
      id,
      spent,
      staleMs,
    );
    if (back !== null) released++;
  }
  return released;
}
