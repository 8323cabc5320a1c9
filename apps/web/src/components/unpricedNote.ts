import { refusesUnpricedModels } from '@one-hub/contracts';
import type { OptionsSnapshot } from '../lib/optionsSnapshot.js';

/** What requests for an unpriced model meet; `unknown` when the reader may not see the setting. */
export type UnpricedPolicy = 'fallback' | 'refuse' | 'unknown';

/** Past this many names a note counts the rest, so a long list does not fill the screen. */
export const UNPRICED_NAMES_SHOWN = 12;

/** Only root may read options: without them (an administrator), both outcomes are possible. */
export function unpricedPolicy(options: OptionsSnapshot | undefined): UnpricedPolicy {
  if (!options) return 'unknown';
  return refusesUnpricedModels(options.values.UnpricedModelPolicy) ? 'refuse' : 'fallback';
}

/** The first names to show, and how many are left to count. */
export function shownNames(models: readonly string[]): { shown: string[]; more: number } {
  return {
    shown: models.slice(0, UNPRICED_NAMES_SHOWN),
    more: Math.max(0, models.length - UNPRICED_NAMES_SHOWN),
  };
}
