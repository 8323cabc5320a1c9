import type { Redis } from 'ioredis';
import type { LeaseSpend } from './journal-replay.js';
import { RELEASE_LEASE } from './redis-lease-scripts.js';

/**
 * After a journal's replay committed: gives back every balance lease its node held in Redis, less
 * what the replay wrote for it (its spend beyond the lease mark). Each lease goes once (the script
 * deletes its record in the same step), so a replay run again gives nothing back twice. A lease
 * whose journal is never replayed (the node's data folder is lost) stays held: the user is short
 * by that slice until an administrator acts, and nothing is ever overdrawn.
 */
export async function releaseLeases(
  redis: Redis,
  prefix: string,
  journalIds: readonly string[],
  spent: LeaseSpend,
): Promise<number> {
  if (journalIds.length === 0) return 0;
  const journals = new Set(journalIds);
  let released = 0;
  for (const [id, record] of Object.entries(await redis.hgetall(`${prefix}res`))) {
    const match = /^(\d+)\|(\d+)\|\d+\|\d+\|L:(.+):(\d+)$/.exec(record);
    if (!match || !journals.has(match[3] as string)) continue;
    const [, user, token, journal, unlimited] = match;
    await redis.eval(
      RELEASE_LEASE,
      5,
      `${prefix}u:${user}`,
      `${prefix}t:${token}`,
      `${prefix}res`,
      `${prefix}uh:${user}`,
      `${prefix}th:${token}`,
      id,
      spent.get(`${journal}|${user}|${token}|${unlimited}`) ?? 0,
    );
    released++;
  }
  return released;
}
