import type { ChangeBus } from '../../platform/changes.js';
import type { CooldownStore } from './cooldowns.js';

/**
 * Makes a cooldown one process starts hold in every process sharing the cache (workers of one
 * node, or several nodes on one Redis): each start is announced on the change bus, and each
 * notice from elsewhere rests the pair here until the same absolute end. With the memory cache
 * there is no other process, so nothing arrives. Nothing runs while no channel cools.
 */
export function shareCooldowns(cooldowns: CooldownStore, changes: ChangeBus): void {
  cooldowns.onStart((channelId, model, until) => {
    // Off the request path: the failed attempt goes on at once; a lost notice only means the
    // other processes find out from their own 429.
    void changes.publish('cooldowns', { channelId, model, until });
  });
  changes.on('cooldowns', (notice, origin) => {
    // The local store already holds what it announced.
    if (origin !== 'remote' || !isCooldownNotice(notice)) return;
    cooldowns.apply(notice.channelId, notice.model, notice.until);
  });
}

/** Remote notices are parsed JSON: checked before they can touch the router. */
function isCooldownNotice(value: unknown): value is { channelId: number; model: string; until: number } {
  if (typeof value !== 'object' || value === null) return false;
  const notice = value as Record<string, unknown>;
  return Number.isSafeInteger(notice.channelId) && typeof notice.model === 'string' && Number.isFinite(notice.until);
}
