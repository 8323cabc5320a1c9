import type { TaskRelayDeps } from '../types.js';
import type { MidjourneyRepository } from './repo.js';
import type { MidjourneyTracker } from './tracker.js';

/** What the Midjourney relay uses: the task relays' deps, its table and its tracker. */
export type MidjourneyDeps = TaskRelayDeps & {
  repo: MidjourneyRepository;
  tracker: MidjourneyTracker;
};
