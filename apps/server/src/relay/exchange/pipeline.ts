import { mapModel } from '../../domain/model-mapping.js';
import { renderErrorBody, toAppError } from '../../http/errors.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import { admitCaller, checkModelAllowed, enterLimits, hasLimits, noRelease } from '../access/admission.js';
import { checkContentSafety } from '../access/content-safety.js';
import { primaryGroupOf, type RelayCaller } from '../access/keys.js';
import { recordFailure } from '../billing/error-log.js';
import { refuseUnpricedModel } from '../billing/unpriced.js';
import { conversationKeyOf, selectChannel } from '../routing/affinity.js';
import { backupGroupOf, noChannelError } from '../routing/backup-group.js';
import { handleChannelFailure } from '../routing/channel-failure.js';
import { withFallbacks } from '../routing/fallbacks.js';
import { checkModelName } from '../routing/model-name.js';
import { RouteTrace } from '../routing/route-trace.js';
import type { RouterChannel, SelectionFilter } from '../routing/router.js';
import type { BalancingStrategy } from '../routing/strategies.js';
import { sendWhole } from '../transport/respond.js';
import { takeSearchSwitch } from '../web-search/switch.js';
import { type Billed, settle, tryChannel } from './attempt.js';
import { readRelayInput } from './endpoint.js';
import { Heartbeat } from './heartbeat.js';
import { reserveForRequest } from './reservation.js';
import type { Attempt, Endpoint, RelayDeps, RelayRecord } from './types.js';
import { withoutChannelKey } from './upstream-errors.js';

/**
 * A relay request from arrival to answer: the key (access), the caller's limits, the request
 * read and checked, a channel picked (routing), the quota reserved (billing), then one try per
 * channel (attempt.ts) until one answers or the retries run out.
 */

/**
 * Authenticates the request's key from its headers (or `?key=`), before its body is read, and
 * keeps the caller on the request for relayRequest: an unknown key is refused without the server
 * reading what it sent. Steady traffic is answered from memory without a promise (keys, limits,
 * balances): awaiting only real promises spares each request turns of the microtask queue.
 */
export function admitRelayRequest(
  deps: RelayDeps,
  endpoint: Endpoint,
  request: RelayHttpRequest,
): undefined | Promise<void> {
  const credential = endpoint.credential ? endpoint.credential(request) : request.headers.authorization;
  const authenticated = deps.keys.authenticate(credential, request.ip);
  if (authenticated instanceof Promise) {
    return authenticated.then((caller) => admitCaller(deps, caller, request, endpoint.modelOf?.(request)));
  }
  return admitCaller(deps, authenticated, request, endpoint.modelOf?.(request));
}

export async function relayRequest(
  deps: RelayDeps,
  endpoint: Endpoint,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Promise<void> {
  const { observer } = deps;
  if (!observer) return relayAdmitted(deps, endpoint, request, reply, undefined);
  const record = observer.started(endpoint.path, request);
  let status = 0;
  let failure: unknown;
  try {
    await relayAdmitted(deps, endpoint, request, reply, record);
  } catch (error) {
    failure = error;
    // The relay front renders the error with this status, unless the answer had begun.
    if (!reply.raw.headersSent) status = toAppError(error).status;
    throw error;
  } finally {
    observer.finished(record, status || reply.raw.statusCode, failure);
  }
}

/**
 * Not an async function: a request admitted before its body was read, with no limits left to enter
 * (nearly all), goes on to relayAuthorised without a frame and a promise of its own here.
 */
function relayAdmitted(
  deps: RelayDeps,
  endpoint: Endpoint,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  record: RelayRecord | undefined,
): Promise<void> {
  const caller = request.relayCaller;
  if (caller && (request.limitsEntered || !hasLimits(deps, caller))) {
    return relayAuthorised(deps, endpoint, caller, request, reply, record);
  }
  return admitThenRelay(deps, endpoint, request, reply, record);
}

async function admitThenRelay(
  deps: RelayDeps,
  endpoint: Endpoint,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  record: RelayRecord | undefined,
) {
  // Admitted before the body was read (routes.ts); authenticated once per request.
  if (!request.relayCaller) {
    const admitting = admitRelayRequest(deps, endpoint, request);
    if (admitting) await admitting;
  }
  const caller = request.relayCaller as RelayCaller;
  // Admission entered the limits before the body was read, and releases them when the answer ends.
  const release =
    !request.limitsEntered && hasLimits(deps, caller)
      ? await enterLimits(deps, caller, (name, value) => reply.header(name, value))
      : noRelease;
  try {
    await relayAuthorised(deps, endpoint, caller, request, reply, record);
  } finally {
    release();
  }
}

async function relayAuthorised(
  deps: RelayDeps,
  endpoint: Endpoint,
  caller: RelayCaller,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  record: RelayRecord | undefined,
) {
  const startedAt = Date.now();
  const input = readRelayInput(endpoint, request);
  const searching = endpoint.webSearch === true && takeSearchSwitch(deps, input);
  const model = input.model;
  checkModelName(model);
  checkModelAllowed(caller, model);
  const primary = primaryGroupOf(caller);
  const attempt: Attempt = {
    caller,
    input,
    group: primary,
    groupRatio: 1,
    startedAt,
    channelsTried: [],
    route: new RouteTrace(strategyOf(deps, primary)),
    record,
  };
  if (record) record.attempt = attempt;
  if (!deps.groups.enabled(primary)) throw AppError.forbidden(`user group ${primary} does not exist or is disabled`);
  const heartbeat = endpoint.heartbeat ? keyHeartbeat(deps, attempt, reply) : undefined;
  try {
    // Before anything is reserved or sent; a refusal is logged as an error row, without the text.
    checkContentSafety(deps.options, input.fields);
    if (searching) await deps.webSearch?.prepare(endpoint, attempt, request, reply);
    // Model fallbacks (routing/fallbacks.ts): each model tried is one round of relayToChannels.
    await withFallbacks(deps, attempt, reply, () => relayToChannels(deps, endpoint, attempt, request, reply));
  } catch (error) {
    recordFailure(deps.writeLog, attempt, request, error);
    // After the heartbeat's early headers a failure can only be told in the body.
    if (!heartbeat?.started) throw error;
    heartbeat.fail(renderErrorBody(toAppError(error), request));
  } finally {
    heartbeat?.stop();
  }
}

/** Reserves, then calls channels until one answers or the retries run out (the last failure is thrown). */
export async function relayToChannels(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Promise<void> {
  const { caller, input } = attempt;
  const hasTools = Array.isArray(input.fields.tools) && input.fields.tools.length > 0;
  const excluded = new Set<number>(caller.skippedChannelIds);
  attempt.groupRatio = deps.groups.enabled(attempt.group)?.ratio ?? 1;
  attempt.affinityKey = conversationKeyOf(deps, endpoint, attempt, request);
  // The backup group, when it is chosen, sets its own ratio.
  let channel = pickChannel(deps, attempt, excluded, hasTools);

  const { billedModel } = mapModel(channel, input.model);
  const price = deps.prices.lookup(billedModel);
  refuseUnpricedModel(deps.options, price, billedModel);
  const reserving = reserveForRequest(deps, endpoint, attempt, { channel, price, billedModel }, request, reply);
  const reservation = reserving instanceof Promise ? await reserving : reserving;
  // Only a request the chat cache may answer awaits it (a promise less for every other).
  if (
    deps.chatCache &&
    (await answeredFromCache(deps, endpoint, attempt, request, reply, { channel, reservation, billedModel, price }))
  ) {
    return;
  }
  const retries = caller.forcedChannelId ? 0 : Math.max(0, deps.options.getNumber('RetryTimes'));
  const retryDeadline = attempt.startedAt + deps.options.getNumber('RetryTimeOut') * 1000;
  try {
    for (let tries = 0; ; tries++) {
      attempt.channelsTried.push(channel.id);
      const sentAt = Date.now();
      // Counted in flight on its channel while it runs (the least_in_flight strategy).
      deps.router.inFlight.enter(channel.id);
      let tried: Awaited<ReturnType<typeof tryChannel>>;
      try {
        tried = await tryChannel(deps, endpoint, attempt, channel, reservation, request, reply);
      } finally {
        deps.router.inFlight.leave(channel.id);
      }
      if (!tried) return;
      const failure = handleChannelFailure(
        deps,
        channel,
        input.model,
        withoutChannelKey(tried, channel),
        request.id,
        () => JSON.stringify(input.fields),
      );
      attempt.lastFailure = failure;
      attempt.route?.attempted(channel.id, failure.class ?? 'refused', Date.now() - sentAt);
      // RetryTimeOut stops retries on an upstream that is saturated; a channel that did not answer
      // in time took most of that time itself, and another channel is what the client needs.
      const late = !failure.timedOut && Date.now() > retryDeadline;
      const exhausted = tries >= retries || !failure.retry || reply.raw.headersSent || late;
      if (exhausted) throw failure.error;
      excluded.add(channel.id);
      channel = nextChannel(deps, attempt, excluded, hasTools) ?? throwError(failure.error);
    }
  } finally {
    // Unless the request settled already (every ledger counts only the first settlement), the
    // whole reservation goes back.
    if (!reservation.settled) await deps.ledger.settle(reservation, 0);
  }
}

/**
 * ChatCacheEnabled: answers a repeated chat from the cache (billed at ChatCacheRatio) and says so;
 * otherwise marks the attempt to fill the cache with its answer. A cache that cannot be read is
 * passed by: the request goes upstream.
 */
async function answeredFromCache(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  billed: Omit<Billed, 'attempt' | 'request'>,
): Promise<boolean> {
  // A call the gateway makes for the client (keepAnswer) is neither answered from nor kept in the cache.
  const key = attempt.keepAnswer ? undefined : deps.chatCache?.keyFor(endpoint, attempt);
  if (!key || !deps.chatCache) return false;
  const hit = await deps.chatCache.read(key).catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'reading the chat cache failed; calling the upstream');
    return undefined;
  });
  if (!hit) {
    attempt.cacheKey = key;
    return false;
  }
  const firstByteMs = Date.now() - attempt.startedAt;
  // Settled and journaled before the answer is sent, as every answer (attempt.ts).
  await settle(
    deps,
    // Written out in attempt.ts's order, not `{ ...billed, attempt, request }`: a spread followed by
    // more properties gives every copy a map of its own in V8 (issue 37, fifth step).
    {
      attempt,
      channel: billed.channel,
      reservation: billed.reservation,
      request,
      billedModel: billed.billedModel,
      price: billed.price,
      generates: billed.generates,
    },
    hit.usage,
    { firstByteMs, clientGone: false },
    deps.chatCache.ratio(),
  );
  sendWhole(reply, 200, hit.contentType, hit.body);
  return true;
}

/** The key's heartbeat, when it has one on; its timeout counts from the request's arrival. */
function keyHeartbeat(deps: RelayDeps, attempt: Attempt, reply: RelayHttpReply): Heartbeat | undefined {
  const setting = attempt.caller.setting.heartbeat;
  if (!setting.enabled) return undefined;
  const elapsed = Date.now() - attempt.startedAt;
  return new Heartbeat(reply.raw, {
    stream: attempt.input.stream,
    startAfterMs: setting.timeout_seconds * deps.heartbeat.secondMs - elapsed,
    intervalMs: deps.heartbeat.intervalMs,
  });
}

/**
 * A channel of the request's group, else of the key's backup group (an enabled one), whose ratio
 * the request is then billed at. The first pick and every retry choose alike; undefined when none
 * is left.
 */
export function nextChannel(
  deps: RelayDeps,
  attempt: Attempt,
  excluded: Set<number>,
  hasTools: boolean,
): RouterChannel | undefined {
  const { group, route } = attempt;
  // One filter for both groups: the backup's pick changes only its group and strategy.
  const filter: SelectionFilter = {
    model: attempt.input.model,
    excluded,
    hasTools,
    stream: attempt.input.stream,
    skipped: route?.skip,
    tierStrategy: route?.useStrategy,
    group,
    strategy: strategyOf(deps, group),
  };
  const sameGroup = selectChannel(deps, attempt, filter);
  if (sameGroup) return sameGroup;
  const backup = backupGroupOf(deps, attempt);
  if (backup) {
    filter.group = backup;
    filter.strategy = strategyOf(deps, backup);
  }
  const fallback = backup ? selectChannel(deps, attempt, filter) : undefined;
  if (backup && fallback) {
    attempt.group = backup;
    attempt.groupRatio = deps.groups.enabled(backup)?.ratio ?? 1;
    if (route) route.strategy = strategyOf(deps, backup);
  }
  return fallback;
}

/** The group's balancing strategy (user_groups.routing_strategy); weighted for a group that sets none. */
export function strategyOf(deps: RelayDeps, group: string): BalancingStrategy {
  return deps.groups.enabled(group)?.routing_strategy ?? 'weighted';
}

function throwError(error: Error): never {
  throw error;
}

export function pickChannel(
  deps: RelayDeps,
  attempt: Attempt,
  excluded: Set<number>,
  hasTools: boolean,
): RouterChannel {
  const { caller } = attempt;
  if (caller.forcedChannelId !== undefined) {
    const forced = deps.router.byChannelId(caller.forcedChannelId);
    if (!forced) throw AppError.forbidden(`channel ${caller.forcedChannelId} does not exist or is disabled`);
    return forced;
  }
  return nextChannel(deps, attempt, excluded, hasTools) ?? throwError(noChannelError(deps, attempt));
}
