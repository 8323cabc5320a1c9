import type { RelayFront } from '../../http/relay-front.js';
import type { InFlightRequests } from '../in-flight.js';
import { installKling } from './kling/routes.js';
import { installMidjourney } from './midjourney/routes.js';
import { installSuno } from './suno/routes.js';
import type { TaskPlatformPoller, TaskRelayDeps } from './types.js';

/**
 * The asynchronous-task surfaces (Midjourney `/mj`, Suno `/suno`, Kling `/kling`): each registers
 * its routes and hands back its poller, which the master node's task poll job runs
 * (jobs/task-poll-job.ts).
 */
export type { TaskPlatformPoller, TaskRelayDeps } from './types.js';

export function installTaskRelays(
  front: RelayFront,
  deps: TaskRelayDeps,
  inFlight: InFlightRequests,
): TaskPlatformPoller[] {
  // One line per vendor folder; the poll job runs the pollers in this order.
  return [
    installMidjourney(front, deps, inFlight),
    installSuno(front, deps, inFlight),
    installKling(front, deps, inFlight),
  ];
}
