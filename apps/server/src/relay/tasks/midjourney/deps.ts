import type { RefreshThrottle } from '../refresh-throttle.js';
import type { TaskRelayDeps } from '../types.js';
import type { MidjourneyRepository } from './repo.js';
import type { MidjourneyTracker } from './tracker.js';

/** What the Midjourney relay uses: the task relays' deps, its table, its tracker and its callbacks' throttle. */
export type MidjourneyDeps = TaskRelayDeps & {
  repo: MidjourneyRepository;
  tracker: MidjourneyTracker;
  refreshes: RefreshThrottle;
};
