import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { toAppError } from '../../http/errors.js';
import type { RelayHttpRequest } from '../../http/relay-front.js';
import { nextRequestId } from '../../http/request-id.js';
import { AppError } from '../../platform/errors.js';
import { enterLimits } from '../access/admission.js';
import { recordFailure } from '../billing/error-log.js';
import type { Attempt, RelayDeps } from '../exchange/types.js';
import type { InFlightRequests } from '../in-flight.js';
import { surfaceErrors } from '../surfaces/errors.js';
import { checkSessionModel, sessionAttempt } from './admission.js';
import { SessionBilling } from './billing.js';
import { type Bridge, bridgeSockets } from './bridge.js';
import { type OpenedChannel, openChannel } from './channels.js';
import { checkUpgradeRequest, chooseProtocol, REALTIME_PATH, readAsk, refuseUpgrade } from './handshake.js';

/**
 * `GET /v1/realtime?model=…`: OpenAI's Realtime API over a WebSocket, relayed to a channel's own.
 * Everything is decided before the client's upgrade is accepted: the key, the model and the
 * limits, then the channels tried in turn until one upstream accepts the session (a refusal or a
 * connection error moves on to the next, like an HTTP request's retries), the quota for the first
 * response held. Any refusal is an HTTP answer in OpenAI's error envelope, never a socket. Then
 * the client's upgrade is accepted and the two sockets are bridged, billed response by response.
 */
export interface RealtimeOptions {
  /** How long an upstream may take to accept the session (per channel tried). */
  handshakeMs: number;
  /** A session with no message either way for this long is closed. */
  idleMs: number;
  /** The largest message either side may send. */
  maxPayload: number;
  /** Bytes waiting to be written to one side before the other side is not read any more. */
  highWaterBytes: number;
  lowWaterBytes: number;
}

export const DEFAULT_REALTIME_OPTIONS: Readonly<RealtimeOptions> = Object.freeze({
  handshakeMs: 10_000,
  idleMs: 120_000,
  maxPayload: 16 * 1024 * 1024,
  highWaterBytes: 1024 * 1024,
  lowWaterBytes: 256 * 1024,
});

/** One session from its upgrade request to its last settlement. */
interface OpenSession {
  /** The client's connection closed before its upgrade was answered. */
  abandoned: boolean;
  bridge: Bridge | undefined;
  socket: Duplex;
}

const noRelease = () => {};

export class RealtimeSurface {
  private readonly sockets: WebSocketServer;
  private readonly requestIds = new WeakMap<IncomingMessage, string>();
  private closing = false;

  constructor(
    private readonly deps: RelayDeps,
    private readonly options: RealtimeOptions,
    private readonly inFlight: InFlightRequests,
  ) {
    this.sockets = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxPayload,
      handleProtocols: (offered) => chooseProtocol(offered),
    });
    this.sockets.on('headers', (headers, raw) => {
      const id = this.requestIds.get(raw);
      if (id) headers.push(`X-Request-Id: ${id}`, `X-Oneapi-Request-Id: ${id}`);
    });
  }

  /** From now on new sessions are refused with 503; open ones end when the relay drains. */
  close(): void {
    this.closing = true;
  }

  handle(raw: IncomingMessage, socket: Duplex, head: Buffer, ip: string): void {
    const id = nextRequestId();
    const url = raw.url ?? '/';
    // A reset before the upgrade is answered ends in `close`; it must not be an unheard error.
    socket.on('error', () => {});
    let ask: ReturnType<typeof readAsk>;
    try {
      ask = readAsk(raw);
      if (ask.path !== REALTIME_PATH) throw new AppError('not_found', `Route GET:${url.split('?')[0]} not found`);
      checkUpgradeRequest(raw);
      if (this.closing) throw new AppError('unavailable', 'the server is shutting down');
    } catch (error) {
      refuseUpgrade(socket, toAppError(error), id, url);
      return;
    }
    this.requestIds.set(raw, id);
    const request: RelayHttpRequest = {
      id,
      ip,
      url,
      headers: raw.headers,
      body: undefined,
      errorRenderer: surfaceErrors.openAi,
    };
    const session: OpenSession = { abandoned: false, bridge: undefined, socket };
    socket.once('close', () => {
      session.abandoned = true;
    });
    const work = this.run(session, request, ask, raw, head).catch((error: unknown) => {
      this.deps.logger.error({ err: error, reqId: id }, 'realtime session failed');
      socket.destroy();
    });
    this.inFlight.track(work, () => {
      if (session.bridge) session.bridge.end(1001, 'the server is shutting down');
      else socket.destroy();
    });
  }

  private async run(
    session: OpenSession,
    request: RelayHttpRequest,
    ask: ReturnType<typeof readAsk>,
    raw: IncomingMessage,
    head: Buffer,
  ): Promise<void> {
    const { deps } = this;
    const record = deps.observer?.started(REALTIME_PATH);
    const refusalHeaders: Record<string, string> = {};
    let release: () => void = noRelease;
    let attempt: Attempt | undefined;
    let opened: OpenedChannel | undefined;
    try {
      const authenticating = deps.keys.authenticate(ask.credential, request.ip);
      const caller = authenticating instanceof Promise ? await authenticating : authenticating;
      attempt = sessionAttempt(deps, caller, checkSessionModel(caller, ask.model));
      if (record) record.attempt = attempt;
      release = await enterLimits(deps, caller, (name, value) => {
        refusalHeaders[name] = value;
      });
      opened = await openChannel(deps, attempt, ask.beta, this.options, () => session.abandoned);
    } catch (error) {
      release();
      if (attempt) recordFailure(deps.writeLog, attempt, request, error);
      const appError = toAppError(error);
      if (appError.status >= 500 && !(error instanceof AppError)) {
        deps.logger.error({ err: error, reqId: request.id }, 'opening a realtime session failed');
      }
      refuseUpgrade(session.socket, appError, request.id, request.url, refusalHeaders);
      if (record) deps.observer?.finished(record, appError.status);
      return;
    }
    try {
      await this.relay(session, opened, attempt, request, raw, head);
    } finally {
      release();
      if (record) deps.observer?.finished(record, 101);
    }
  }

  /** Accepts the client's upgrade, bridges the two sockets and bills the session until both close. */
  private async relay(
    session: OpenSession,
    opened: OpenedChannel,
    attempt: Attempt,
    request: RelayHttpRequest,
    raw: IncomingMessage,
    head: Buffer,
  ): Promise<void> {
    const { deps, options } = this;
    const client = session.abandoned ? undefined : await this.accept(raw, session.socket, head);
    if (!client) {
      opened.upstream.terminate();
      await deps.ledger.settle(opened.reservation, 0);
      return;
    }
    const billing = new SessionBilling(
      deps,
      {
        caller: attempt.caller,
        requestId: request.id,
        sourceIp: request.ip,
        model: opened.billedModel,
        channelId: opened.channel.id,
        group: attempt.group,
        groupRatio: attempt.groupRatio,
        price: opened.price,
        startedAt: attempt.startedAt,
      },
      opened.reservation,
      (error) => this.billingStopped(bridge, error, request.id),
    );
    const bridge = bridgeSockets(client, opened.upstream, {
      idleMs: options.idleMs,
      highWaterBytes: options.highWaterBytes,
      lowWaterBytes: options.lowWaterBytes,
      onUpstreamText: (message) => billing.observe(message),
    });
    session.bridge = bridge;
    await bridge.done;
    await billing.close();
    attempt.charged = billing.charged;
  }

  /** The client's socket once its upgrade is answered; undefined if it went first. */
  private accept(raw: IncomingMessage, socket: Duplex, head: Buffer): Promise<WebSocket | undefined> {
    return new Promise((resolve) => {
      // ws destroys a socket it cannot upgrade any more without calling back.
      const gone = () => resolve(undefined);
      socket.once('close', gone);
      this.sockets.handleUpgrade(raw, socket, head, (client) => {
        socket.off('close', gone);
        resolve(client);
      });
    });
  }

  /** The quota for the next response cannot be held (or billing failed): the session ends with an error event. */
  private billingStopped(bridge: Bridge, error: unknown, requestId: string): void {
    const appError = toAppError(error);
    if (appError.status >= 500)
      this.deps.logger.error({ err: error, reqId: requestId }, 'billing a realtime session failed');
    const exhausted = appError.details.type === 'insufficient_quota';
    const event = {
      type: 'error',
      event_id: `event_${requestId}`,
      error: {
        type: exhausted ? 'insufficient_quota' : 'server_error',
        code: exhausted ? 'insufficient_quota' : 'billing_failed',
        message: exhausted
          ? `${appError.message}; the session was closed (request id: ${requestId})`
          : `the session could not be billed and was closed (request id: ${requestId})`,
        param: null,
        event_id: null,
      },
    };
    bridge.end(1008, exhausted ? 'insufficient quota' : 'billing failed', JSON.stringify(event));
  }
}
