import type { RelayFront, RelayHandler, RelayHttpRequest, RelayRouteOptions } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import type { InFlightRequests } from '../../in-flight.js';
import { type CredentialOf, callerOf, keyedRouteOptions } from '../admission.js';
import { RefreshThrottle } from '../refresh-throttle.js';
import type { TaskPlatformPoller, TaskRelayDeps } from '../types.js';
import type { MjMode } from './actions.js';
import type { MidjourneyDeps } from './deps.js';
import { renderMidjourneyError } from './errors.js';
import { streamImage } from './image.js';
import { checkImageSignature, signedNotifyChannel } from './links.js';
import { midjourneyPoller } from './poller.js';
import { fetchTask, imageSeed, listByCondition, notifyTask } from './queries.js';
import { MidjourneyRepository } from './repo.js';
import { submitTask } from './submit.js';
import { MidjourneyTracker } from './tracker.js';

/**
 * The midjourney-proxy compatible surface (reference §2.1): every route under `/mj`, and the same
 * under `/mj-fast/mj`, `/mj-turbo/mj` and `/mj-relax/mj`; any other mode is refused. The key comes
 * in `mj-api-secret` (or `Authorization`) and is checked from the headers before a body is read.
 * The two routes without a key, the proxy's callback and a task's image, need a link this server
 * signed (links.ts), checked from the query before a body is read.
 */

/** The proxy's callback names a task (`{"id": …}`, with the task's fields at most): a few KiB. */
const NOTIFY_BODY_LIMIT = 16 * 1024;

const MODES: ReadonlyArray<readonly [prefix: string, mode: MjMode]> = [
  ['', 'fast'],
  ['/mj-fast', 'fast'],
  ['/mj-turbo', 'turbo'],
  ['/mj-relax', 'relax'],
];

const SUBMIT_ENDPOINTS = [
  'imagine',
  'change',
  'simple-change',
  'describe',
  'blend',
  'action',
  'modal',
  'shorten',
  'upload-discord-images',
] as const;

const BAD_MODE = new AppError('bad_request', '无效的加速模式', {
  details: { type: 'one_hub_error', code: '4' },
});

const credentialOf: CredentialOf = (request) => {
  const secret = request.headers['mj-api-secret'];
  if (typeof secret === 'string' && secret !== '') return secret;
  return request.headers.authorization;
};

export function installMidjourney(
  front: RelayFront,
  taskDeps: TaskRelayDeps,
  inFlight: InFlightRequests,
): TaskPlatformPoller {
  const repo = new MidjourneyRepository(taskDeps.refunds.database);
  const tracker = new MidjourneyTracker({ ...taskDeps, repo });
  const deps: MidjourneyDeps = { ...taskDeps, repo, tracker, refreshes: new RefreshThrottle() };
  const render = renderMidjourneyError;
  const image: RelayRouteOptions = { render, admit: (request) => checkImageSignature(deps.links, request) };
  const notify: RelayRouteOptions = {
    render,
    bodyLimit: NOTIFY_BODY_LIMIT,
    admit: (request) => {
      signedNotifyChannel(deps.links, request);
    },
  };
  // A submission's rate and concurrency are taken from the headers too, before its body is read.
  const { authed, submitting } = keyedRouteOptions(deps, render, credentialOf);
  const withCaller =
    (read: (caller: RelayCaller, request: RelayHttpRequest) => Promise<unknown>): RelayHandler =>
    async (request) =>
      read(callerOf(request), request);

  for (const [prefix, mode] of MODES) {
    const base = `${prefix}/mj`;
    const submit =
      (endpoint: string): RelayHandler =>
      (request, reply) =>
        inFlight.track(submitTask(deps, request, reply, { mode, explicitMode: prefix !== '', endpoint }), () =>
          reply.raw.destroy(),
        );
    for (const endpoint of SUBMIT_ENDPOINTS)
      front.route('POST', `${base}/submit/${endpoint}`, submitting, submit(endpoint));
    front.route('POST', `${base}/insight-face/swap`, submitting, submit('swap'));
    front.route(
      'POST',
      `${base}/task/list-by-condition`,
      authed,
      withCaller((caller, request) => listByCondition(deps, caller, request)),
    );
    front.route(
      'GET',
      `${base}/task/:id/fetch`,
      authed,
      withCaller((caller, request) => fetchTask(deps, caller, request)),
    );
    front.route(
      'GET',
      `${base}/task/:id/image-seed`,
      authed,
      withCaller((caller, request) => imageSeed(deps, caller, request)),
    );
    front.route('GET', `${base}/image/:id`, image, (request, reply) => streamImage(deps, request, reply));
    front.route('POST', `${base}/notify`, notify, (request) =>
      notifyTask(deps, request, signedNotifyChannel(deps.links, request)),
    );
  }
  // Any other `/:mode/mj/…`; a known mode's unknown path is a plain 404.
  front.route('*', '/:mode/mj/*', { render, body: 'stream' }, async (request) => {
    const mode = (request.params as { mode: string }).mode;
    if (MODES.some(([prefix]) => prefix === `/${mode}`)) throw AppError.notFound(`Route ${request.url} not found`);
    throw BAD_MODE;
  });
  front.surface('/mj/', render);
  front.surface('/mj-', render);
  return midjourneyPoller(deps);
}
