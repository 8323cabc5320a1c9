import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OptionService } from '../api/option/service.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { type Price, reservationQuota, settledQuota, type Usage } from './billing/quota.js';
import { consumeLogRow } from './consume-log.js';
import { readBody, type UpstreamClient, type UpstreamResponse } from './executor.js';
import type { GroupDirectory } from './groups.js';
import type { KeyAuthenticator, RelayCaller } from './keys.js';
import type { QuotaLedger, Reservation } from './ledger.js';
import type { ConcurrencyGate, RateLimiter } from './limits.js';
import { mapModel, prepareOpenAiRequest } from './providers/openai/request.js';
import { relayStream, streamHeaders } from './respond.js';
import type { ChannelRouter, RouterChannel } from './router.js';
import { classifyUpstreamError, networkFailure, type UpstreamFailure } from './upstream-errors.js';

/** What the pipeline needs from the rest of the server; all of it answers from memory. */
export interface RelayDeps {
  keys: KeyAuthenticator;
  upstream: UpstreamClient;
  router: ChannelRouter;
  ledger: QuotaLedger;
  limiter: RateLimiter;
  concurrency: ConcurrencyGate;
  groups: GroupDirectory;
  options: OptionService;
  prices: { lookup(model: string): Price };
  baseUrlOf(channel: RouterChannel): string;
  writeLog(row: ReturnType<typeof consumeLogRow>): void;
  disableChannel(channel: RouterChannel, reason: string): void;
  logger: Logger;
}

/** One OpenAI-format endpoint: where it goes upstream and how its prompt is counted. */
export interface Endpoint {
  path: string;
  streamable: boolean;
  /** Fast, generous estimate used to size the reservation. */
  estimatePrompt(body: Record<string, unknown>): number;
  /** Exact count with the tokenizer, used only when the upstream reports no usage. */
  countPrompt(body: Record<string, unknown>): number;
}

const MAX_UPSTREAM_JSON = 64 * 1024 * 1024;

interface Attempt {
  caller: RelayCaller;
  body: Record<string, unknown>;
  model: string;
  group: string;
  groupRatio: number;
  stream: boolean;
  estimatedPromptTokens: number;
  startedAt: number;
}

function readRequestBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.badRequest('request body must be a JSON object');
  }
  const model = (body as { model?: unknown }).model;
  if (typeof model !== 'string' || !model.trim()) {
    throw new AppError('bad_request', 'model: a model name is required', { details: { param: 'model' } });
  }
  return body as Record<string, unknown>;
}

function checkModelAllowed(caller: RelayCaller, model: string): void {
  const rule = caller.setting.limits.limit_model_setting;
  if (rule.enabled && !rule.models.includes(model)) {
    throw new AppError('forbidden', `model ${model} is not allowed for this API key`, {
      status: 403,
      details: { code: 'model_not_allowed', param: 'model' },
    });
  }
}

function tooMany(reply: FastifyReply, retryAfterSeconds: number, message: string): AppError {
  reply.header('retry-after', String(retryAfterSeconds));
  return new AppError('rate_limited', message, { details: { code: 'rate_limit_exceeded' } });
}

/** The user group's RPM, the key's own RPM, then the key's concurrency; returns the slot release. */
async function enforceLimits(deps: RelayDeps, caller: RelayCaller, reply: FastifyReply): Promise<() => void> {
  const groupRate = deps.groups.enabled(caller.user.group)?.api_rate ?? 0;
  if (groupRate > 0) {
    const decision = await deps.limiter.take(`user:${caller.user.id}`, groupRate);
    if (!decision.allowed) {
      throw tooMany(
        reply,
        decision.retryAfterSeconds,
        `rate limit of ${groupRate} requests per minute reached; retry later`,
      );
    }
  }
  const { rpm, concurrency } = caller.setting.limits;
  if (rpm > 0) {
    const decision = await deps.limiter.take(`key:${caller.token.id}`, rpm);
    if (!decision.allowed) {
      throw tooMany(reply, decision.retryAfterSeconds, `this API key's limit of ${rpm} requests per minute is reached`);
    }
  }
  if (concurrency <= 0) return () => {};
  const slot = `key:${caller.token.id}`;
  if (!deps.concurrency.tryEnter(slot, concurrency)) {
    throw tooMany(reply, 1, `this API key allows ${concurrency} requests at a time`);
  }
  return () => deps.concurrency.leave(slot);
}

export async function relayRequest(deps: RelayDeps, endpoint: Endpoint, request: FastifyRequest, reply: FastifyReply) {
  const caller = await deps.keys.authenticate(request.headers.authorization, request.ip);
  const release = await enforceLimits(deps, caller, reply);
  try {
    await relayAuthorised(deps, endpoint, caller, request, reply);
  } finally {
    release();
  }
}

async function relayAuthorised(
  deps: RelayDeps,
  endpoint: Endpoint,
  caller: RelayCaller,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const startedAt = Date.now();
  const body = readRequestBody(request);
  const model = String(body.model).trim();
  checkModelAllowed(caller, model);
  const stream = endpoint.streamable && body.stream === true;
  const primary = caller.token.group || caller.user.group;
  const attempt: Attempt = {
    caller,
    body,
    model,
    group: primary,
    groupRatio: 1,
    stream,
    estimatedPromptTokens: endpoint.estimatePrompt(body),
    startedAt,
  };
  if (!deps.groups.enabled(primary)) throw AppError.forbidden(`user group ${primary} does not exist or is disabled`);
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const excluded = new Set<number>(caller.skippedChannelIds);
  let channel = pickChannel(deps, attempt, excluded, hasTools);
  // The backup group, when it was used, bills at its own ratio.
  attempt.groupRatio = deps.groups.enabled(attempt.group)?.ratio ?? 1;

  const price = deps.prices.lookup(mapModel(channel, model).billedModel);
  const reservation = await deps.ledger.reserve(
    caller.user.id,
    caller.unlimited ? null : caller.token.id,
    reservationQuota({
      price,
      groupRatio: attempt.groupRatio,
      promptTokens: attempt.estimatedPromptTokens,
      preConsumedQuota: deps.options.getNumber('PreConsumedQuota'),
    }),
  );
  const retries = caller.forcedChannelId ? 0 : Math.max(0, deps.options.getNumber('RetryTimes'));
  const retryDeadline = startedAt + deps.options.getNumber('RetryTimeOut') * 1000;
  try {
    for (let tries = 0; ; tries++) {
      const failure = await tryChannel(deps, endpoint, attempt, channel, reservation, request, reply);
      if (!failure) return;
      handleChannelFailure(deps, channel, model, failure);
      const exhausted = tries >= retries || !failure.retry || reply.raw.headersSent || Date.now() > retryDeadline;
      if (exhausted) throw failure.error;
      excluded.add(channel.id);
      const next = deps.router.select({ group: attempt.group, model, excluded, hasTools, stream });
      if (!next) throw failure.error;
      channel = next;
    }
  } finally {
    // A no-op when the request settled already; otherwise the whole reservation goes back.
    deps.ledger.settle(reservation, 0);
  }
}

function pickChannel(deps: RelayDeps, attempt: Attempt, excluded: Set<number>, hasTools: boolean): RouterChannel {
  const { caller, model } = attempt;
  if (caller.forcedChannelId !== undefined) {
    const forced = deps.router.byChannelId(caller.forcedChannelId);
    if (!forced) throw AppError.forbidden(`channel ${caller.forcedChannelId} does not exist or is disabled`);
    return forced;
  }
  const filter = { model, excluded, hasTools, stream: attempt.stream };
  const primary = deps.router.select({ ...filter, group: attempt.group });
  if (primary) return primary;
  const backup = caller.token.backup_group;
  if (backup && backup !== attempt.group) {
    const fallback = deps.router.select({ ...filter, group: backup });
    if (fallback) {
      attempt.group = backup;
      return fallback;
    }
  }
  throw new AppError('unavailable', `no available channel for model ${model} in group ${attempt.group}`, {
    status: 503,
    details: { code: 'model_not_available', param: 'model' },
  });
}

function handleChannelFailure(deps: RelayDeps, channel: RouterChannel, model: string, failure: UpstreamFailure): void {
  if (failure.coolDown) deps.router.coolDown(channel.id, model, deps.options.getNumber('RetryCooldownSeconds'));
  if (failure.disable && deps.options.getBoolean('AutomaticDisableChannelEnabled')) {
    deps.disableChannel(channel, failure.error.message);
  }
}

async function tryChannel(
  deps: RelayDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  channel: RouterChannel,
  reservation: Reservation,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<UpstreamFailure | undefined> {
  const prepared = prepareOpenAiRequest(channel, deps.baseUrlOf(channel), endpoint.path, attempt.body, attempt.model);
  const abort = new AbortController();
  let upstream: UpstreamResponse;
  try {
    upstream = await deps.upstream.send({ ...prepared, proxy: channel.proxy, signal: abort.signal });
  } catch (error) {
    return networkFailure(error);
  }
  if (upstream.status >= 400) {
    const text = (await readBody(upstream.body, 1024 * 1024).catch(() => Buffer.alloc(0))).toString('utf8');
    const keywords = deps.options
      .get('DisableChannelKeywords')
      .split('\n')
      .map((line) => line.trim());
    return classifyUpstreamError(upstream.status, text, keywords);
  }
  const price = deps.prices.lookup(prepared.billedModel);
  const finish = (usage: Usage, firstByteMs: number | undefined, clientGone: boolean) => {
    const settled = settledQuota({ price, groupRatio: attempt.groupRatio, usage });
    const { charged, shortfall } = deps.ledger.settle(reservation, settled.quota, channel.id);
    if (deps.options.getBoolean('LogConsumeEnabled')) {
      deps.writeLog(
        consumeLogRow({
          caller: attempt.caller,
          requestId: request.id,
          sourceIp: request.ip,
          model: prepared.billedModel,
          channelId: channel.id,
          group: attempt.group,
          groupRatio: attempt.groupRatio,
          price,
          settled,
          usage,
          charged,
          shortfall,
          startedAt: attempt.startedAt,
          firstByteMs,
          stream: attempt.stream,
          clientGone,
        }),
      );
    }
  };

  if (attempt.stream) {
    reply.hijack();
    reply.raw.writeHead(200, streamHeaders(request.id));
    const clientAsked =
      (attempt.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    const outcome = await relayStream(upstream, reply, {
      forwardUsage: clientAsked,
      startedAt: attempt.startedAt,
      abort,
    });
    // Bill what was produced, also when the client left or the upstream broke off mid-stream.
    const usage = outcome.usage ?? {
      prompt_tokens: endpoint.countPrompt(attempt.body),
      completion_tokens: outcome.countedCompletionTokens,
    };
    finish(usage, outcome.firstByteMs, outcome.clientGone);
    if (outcome.failure) deps.logger.warn({ channel: channel.id, err: outcome.failure }, 'upstream stream broke off');
    return undefined;
  }

  const raw = await readBody(upstream.body, MAX_UPSTREAM_JSON);
  const firstByteMs = Date.now() - attempt.startedAt;
  let usage: Usage | undefined;
  try {
    const parsed = JSON.parse(raw.toString('utf8')) as { usage?: Usage };
    if (parsed.usage) usage = parsed.usage;
  } catch {
    // A non-JSON success body (audio, for example) is forwarded untouched and billed on the prompt.
  }
  finish(usage ?? { prompt_tokens: endpoint.countPrompt(attempt.body), completion_tokens: 0 }, firstByteMs, false);
  const contentType = upstream.headers['content-type'];
  reply
    .status(upstream.status)
    .header('content-type', typeof contentType === 'string' ? contentType : 'application/json')
    .send(raw);
  return undefined;
}
