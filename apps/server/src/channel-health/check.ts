import type { ServerResponse } from 'node:http';
import { splitChannelList } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ChannelService, RoutingChannel } from '../api/channel/service.js';
import type { Auth } from '../http/auth.js';
import { parseInput } from '../http/validate.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import { streamHeaders } from '../relay/transport/respond.js';
import type { ImageBeacon } from './check-beacon.js';
import { type CheckTarget, checkModel, checkTarget, type ModelCheck, unsupportedCheck } from './check-probes.js';

/** More models than this in one check is a mistake, not a check: each one costs five requests. */
const MAX_CHECKED_MODELS = 50;
const HEARTBEAT_MS = 10_000;

const requiredOr = (field: string, kind: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${kind}`;

export const checkBody = z.object({
  id: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z
      .number({ error: requiredOr('id', 'a number') })
      .int('id must be an integer')
      .positive('id must be positive'),
  ),
  models: z
    .string({ error: requiredOr('models', 'text') })
    .transform(splitChannelList)
    .pipe(
      z
        .array(z.string().max(100, 'models: a model name is at most 100 characters'))
        .min(1, 'models: name at least one model')
        .max(MAX_CHECKED_MODELS, `models: at most ${MAX_CHECKED_MODELS} models at a time`),
    ),
});

export type CheckFrame =
  | { type: 'result'; data: ModelCheck }
  | { type: 'heartbeat'; data: 'ping' }
  | { type: 'done'; data: 'completed' };

export interface ChannelCheckDeps {
  auth: Pick<Auth, 'requireAdmin'>;
  channels: Pick<ChannelService, 'findForRouting'>;
  upstream: UpstreamClient;
  logger: Pick<Logger, 'error'>;
  /** The image probe's beacon; without one that probe is left out. */
  beacon?: ImageBeacon;
  /** Aborts checks in flight when the server stops. */
  stop?: AbortSignal;
  heartbeatMs?: number;
}

/**
 * The client end of a check: frames wait for the client to drain, and a client that leaves (or
 * a server that stops) aborts the probes in flight through `signal`.
 */
class FrameWriter {
  private readonly abort = new AbortController();
  readonly signal: AbortSignal;
  private readonly onClose = () => {
    if (!this.response.writableFinished) this.abort.abort();
  };

  constructor(
    private readonly response: ServerResponse,
    stop: AbortSignal | undefined,
  ) {
    this.signal = stop ? AbortSignal.any([this.abort.signal, stop]) : this.abort.signal;
    response.once('close', this.onClose);
  }

  get stopped(): boolean {
    return this.signal.aborted || this.response.destroyed;
  }

  async send(frame: CheckFrame): Promise<void> {
    if (this.stopped) return;
    if (!this.response.write(`event: message\ndata: ${JSON.stringify(frame)}\n\n`)) {
      await new Promise((resolve) => this.response.once('drain', resolve).once('close', resolve));
    }
  }

  /** A heartbeat is only worth sending to a client that is keeping up. */
  heartbeat(): void {
    if (!this.stopped && !this.response.writableNeedDrain) void this.send({ type: 'heartbeat', data: 'ping' });
  }

  end(): void {
    this.response.off('close', this.onClose);
    if (!this.response.destroyed) this.response.end();
  }
}

async function runChecks(
  deps: ChannelCheckDeps,
  writer: FrameWriter,
  channel: RoutingChannel,
  target: CheckTarget | undefined,
  models: string[],
): Promise<void> {
  for (const model of models) {
    if (writer.stopped) return;
    const result = target
      ? await checkModel(deps.upstream, channel, target, model, writer.signal, deps.beacon)
      : unsupportedCheck(model);
    // Probes cut short by the client leaving or a shutdown say nothing about the channel.
    if (writer.stopped) return;
    await writer.send({ type: 'result', data: result });
  }
  await writer.send({ type: 'done', data: 'completed' });
}

/** POST /api/sse/channel/check (admin): probes a channel's models and streams a result per model. */
export function installChannelCheck(app: FastifyInstance, deps: ChannelCheckDeps): void {
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;

  app.post('/api/sse/channel/check', { onRequest: deps.auth.requireAdmin }, async (request, reply) => {
    const { id, models } = parseInput(checkBody, request.body);
    const channel = await deps.channels.findForRouting(id);
    if (!channel) throw AppError.notFound(`channel ${id} not found`);
    // Resolved before the stream starts, so a channel without a base URL still gets a plain 400.
    const target = checkTarget(channel);

    reply.hijack();
    reply.raw.writeHead(200, streamHeaders);
    const writer = new FrameWriter(reply.raw, deps.stop);
    const heartbeat = setInterval(() => writer.heartbeat(), heartbeatMs);
    try {
      await runChecks(deps, writer, channel, target, models);
    } catch (error) {
      // Probes catch their own failures; anything here is a bug, and the stream just ends.
      deps.logger.error({ err: error, channel: id }, 'channel check failed');
    } finally {
      clearInterval(heartbeat);
      writer.end();
    }
  });
}
