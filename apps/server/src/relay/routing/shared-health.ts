import type { OptionReader } from '../../domain/options.js';
import type { ChangeBus } from '../../platform/changes.js';
import type { ChannelHealth, HealthChange, HealthSettings } from './health.js';

/**
 * Makes a channel's opening and closing hold in every process sharing the cache (workers of one
 * node, or nodes on one Redis), as cooldowns are shared (shared-cooldowns.ts): each change this
 * process makes is announced on the change bus off the request path, and each notice from
 * elsewhere is applied here. Degrading is not announced: each process weighs by its own counts.
 */
export function shareHealth(health: ChannelHealth, changes: ChangeBus): void {
  health.onChange((change) => {
    // A lost notice only means another process finds out from its own failures.
    void changes.publish('health', change);
  });
  changes.on('health', (notice, origin) => {
    if (origin !== 'remote' || !isHealthNotice(notice)) return;
    health.apply(notice);
  });
}

/** Remote notices are parsed JSON: checked before they can touch the router. */
function isHealthNotice(value: unknown): value is HealthChange {
  if (typeof value !== 'object' || value === null) return false;
  const notice = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(notice.channelId) &&
    typeof notice.model === 'string' &&
    (notice.state === 'open' || notice.state === 'closed') &&
    Number.isFinite(notice.openedAt) &&
    Number.isFinite(notice.until)
  );
}

/** The ChannelHealth* settings as health.ts reads them. */
export function healthSettingsFrom(options: OptionReader): () => HealthSettings {
  return () => ({
    enabled: options.getBoolean('ChannelHealthEnabled'),
    windowSeconds: options.getNumber('ChannelHealthWindowSeconds'),
    minSamples: options.getNumber('ChannelHealthMinSamples'),
    degradedPercent: options.getNumber('ChannelHealthDegradedPercent'),
    openPercent: options.getNumber('ChannelHealthOpenPercent'),
    coolOffSeconds: options.getNumber('ChannelHealthCoolOffSeconds'),
    trialPercent: options.getNumber('ChannelHealthTrialPercent'),
    degradedWeight: options.getNumber('ChannelHealthDegradedWeight'),
  });
}
