import { mapModel } from '../../domain/model-mapping.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { recordCharge } from '../billing/consume-log.js';
import type { Reservation } from '../billing/ledger.js';
import { type Price, settledQuota, type Usage } from '../billing/quota.js';
import { unpricedModelRefusal } from '../billing/unpriced.js';
import { chatAdapterFor } from '../providers/adapters.js';
import { openAiAdapter } from '../providers/openai/adapter.js';
import type { RouterChannel } from '../routing/router.js';
import { pumpToClient, sendWhole, type TransferOutcome } from '../transport/respond.js';
import { exchangeFor } from './exchange.js';
import { tappedRelay } from './observers.js';
import { withPreAddedParameters } from './pre-add.js';
import type { AnswerTap, Attempt, Endpoint, RelayDeps, StreamAnswer, WholeAnswer } from './types.js';
import { isFailure, type UpstreamFailure } from './upstream-errors.js';

/**
 * One try on one channel: the exchange for the endpoint and the channel calls it and hands back
 * the answer or the failure (for the retry loop); the transport writes the answer to the client;
 * the reservation is settled on the answer's usage (here rather than in an async function of its
 * own: one frame and promise less a request).
 */
export async function tryChannel(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Promise<UpstreamFailure | undefined> {
  const { upstreamModel, billedModel } = mapModel(channel, attempt.input.model);
  const price = deps.prices.lookup(billedModel);
  // A retry's channel may map the model to another, unpriced one; with unpriced models refused it
  // is skipped unsent, like a channel that cannot serve the endpoint (the first channel was checked
  // before the reservation).
  const refused = unpricedModelRefusal(deps.options, price, billedModel);
  if (refused) return { error: refused, retry: true, disable: false, coolDown: false };
  // Traces watch each try; metrics count failures alone (channel-failure.ts) and watch none.
  const watch =
    attempt.record &&
    deps.observer?.channelTry?.(attempt.record, {
      id: channel.id,
      type: channel.type,
      upstreamModel,
    });
  const adapter = chatAdapterFor(channel.type);
  const exchange = exchangeFor(endpoint, channel.type, upstreamModel, adapter, channel);
  const sentAt = Date.now();
  const answer = await exchange({
    deps,
    endpoint,
    attempt: withPreAddedParameters(attempt, endpoint, channel),
    channel,
    adapter: adapter ?? openAiAdapter,
    upstreamModel,
    billedModel,
    request,
  });
  if (isFailure(answer)) {
    watch?.failed(answer);
    return answer;
  }
  const tap = watch?.answered(answer.status);
  const answeredAt = Date.now();
  attempt.route?.attempted(channel.id, 'ok', answeredAt - sentAt);
  const generates = endpoint.surface !== undefined || endpoint.path === '/v1/completions';
  const billed: Billed = { attempt, channel, reservation, request, billedModel, price, generates };
  let transfer: TransferOutcome;
  try {
    if (answer.kind === 'whole') {
      // Settled, logged and journaled before the answer is sent: a process killed after the client
      // saw it has billed and logged it.
      transfer = { firstByteMs: Date.now() - attempt.startedAt, clientGone: false };
      await settle(deps, billed, answer.usage, transfer);
      sendWholeAnswer(deps, answer, attempt, reply, tap);
    } else transfer = await pumpStream(deps, answer, billed, reply, tap);
  } catch (error) {
    watch?.ended({ clientGone: false, failure: error });
    throw error;
  }
  watch?.ended(transfer);
  if (transfer.failure) deps.logger.warn({ err: transfer.failure }, 'upstream stream broke off');
  recordOutcome(deps, attempt, channel, transfer, { sentAt, answeredAt });
  return undefined;
}

/** Sends the settled whole answer (or hands it to the gateway's own call); a tap is shown what the client gets. */
function sendWholeAnswer(
  deps: RelayDeps,
  answer: WholeAnswer,
  attempt: Attempt,
  reply: RelayHttpReply,
  tap: AnswerTap | undefined,
): void {
  tap?.whole(answer.body);
  if (attempt.keepAnswer) attempt.keepAnswer(answer);
  else sendWhole(reply, answer.status, answer.contentType, answer.body);
  if (attempt.cacheKey) keepInChatCache(deps, attempt.cacheKey, answer);
}

/**
 * Pumps a streamed answer to the client. What was produced is billed, also when the client left or
 * the upstream broke off mid-way; before the stream's last event, for the same reason as above.
 */
function pumpStream(
  deps: RelayDeps,
  answer: StreamAnswer,
  billed: Billed,
  reply: RelayHttpReply,
  tap: AnswerTap | undefined,
): Promise<TransferOutcome> {
  const relay = tap ? tappedRelay(answer.relay, tap) : answer.relay;
  return pumpToClient(answer.upstream, reply, answer, relay, billed.attempt.startedAt, (outcome) =>
    settle(deps, billed, answer.relay.usage(), outcome),
  );
}

/**
 * The channel's health hears how the answer went: its time to first byte (the first streamed
 * chunk, or the whole answer) and duration; a stream the upstream broke off is a connection failure.
 */
function recordOutcome(
  deps: RelayDeps,
  attempt: Attempt,
  channel: RouterChannel,
  transfer: TransferOutcome,
  times: { sentAt: number; answeredAt: number },
): void {
  const { health } = deps.router;
  const model = attempt.input.model;
  if (transfer.failure) {
    health.recordFailure(channel.id, model, 'connection', 'the upstream broke the answer off');
    return;
  }
  const firstByte = transfer.firstByteMs === undefined ? times.answeredAt : attempt.startedAt + transfer.firstByteMs;
  health.recordSuccess(channel.id, model, Math.max(0, firstByte - times.sentAt), Date.now() - times.sentAt);
}

/** Fills the chat cache off the request's path; a cache that fails only costs the next request a call. */
function keepInChatCache(deps: RelayDeps, key: string, answer: WholeAnswer): void {
  deps.chatCache?.write(key, answer).catch((error: unknown) => {
    deps.logger.warn({ err: error }, 'keeping an answer in the chat cache failed');
  });
}

export interface Billed {
  attempt: Attempt;
  channel: RouterChannel;
  reservation: Reservation;
  request: RelayHttpRequest;
  billedModel: string;
  price: Price;
  /** A text-generating endpoint (chat, completions, Messages, Gemini, Responses): NoChargeForEmptyAnswers applies. */
  generates?: boolean;
}

/**
 * Settles the reservation on `usage` and writes the consume log. A chat-cache hit (`cacheRatio`)
 * costs that share of what the call it repeats cost.
 */
export async function settle(
  deps: RelayDeps,
  billed: Billed,
  usage: Usage,
  transfer: TransferOutcome,
  cacheRatio?: number,
): Promise<void> {
  const { attempt, channel, reservation, request, price } = billed;
  const full = settledQuota({ price, groupRatio: attempt.groupRatio, usage });
  // A whole answer tells this node how long the model's answers run (sizing later reservations).
  if (cacheRatio === undefined && !transfer.clientGone && !transfer.failure) {
    deps.completions?.record(billed.billedModel, full.completionTokens);
  }
  const settled = cacheRatio === undefined ? full : { ...full, quota: Math.round(full.quota * cacheRatio) };
  // NoChargeForEmptyAnswers: an answer that produced nothing, or broke off after it began, is free.
  if (billed.generates && deps.options.getBoolean('NoChargeForEmptyAnswers')) {
    if (full.completionTokens === 0 || transfer.failure) settled.quota = 0;
  }
  // A cache hit called no channel: none is credited with its cost or named in its log.
  const channelId = cacheRatio === undefined ? channel.id : 0;
  const result = await deps.ledger.settle(reservation, settled.quota, channelId, {
    tokens: full.promptTokens + full.completionTokens,
  });
  attempt.charged = result.charged;
  attempt.usage = usage;
  const committing = recordCharge(
    deps,
    {
      caller: attempt.caller,
      requestId: request.id,
      sourceIp: request.ip,
      model: billed.billedModel,
      channelId,
      group: attempt.group,
      groupRatio: attempt.groupRatio,
      price,
      settled,
      usage,
      startedAt: attempt.startedAt,
      firstByteMs: transfer.firstByteMs,
      stream: attempt.input.stream,
      clientGone: transfer.clientGone,
      cached: cacheRatio !== undefined,
      route: cacheRatio === undefined ? attempt.route?.toJSON() : undefined,
      requestedModel: attempt.requestedModel,
    },
    result,
  );
  if (committing) await committing;
}
