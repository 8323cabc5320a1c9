import WebSocket from 'ws';

/**
 * Relays one realtime session between the client's socket and the upstream's: every message goes
 * across unchanged (text as text, binary as binary). Memory stays bounded: when one side has more
 * than `highWaterBytes` waiting to be written, the other side is not read until it drains below
 * `lowWaterBytes`. The first side to close closes the other with its code; a session with no
 * message either way for `idleMs` is closed. Resolves once both sockets are closed.
 */
export interface BridgeOptions {
  idleMs: number;
  highWaterBytes: number;
  lowWaterBytes: number;
  /** Each upstream text message, before it is forwarded (billing reads usage from it). */
  onUpstreamText(message: Buffer): void;
}

export interface BridgeEnd {
  /** Which side closed first, or `gateway` when the gateway ended it (idle, quota, shutdown). */
  closedBy: 'client' | 'upstream' | 'gateway';
  code: number;
}

export interface Bridge {
  done: Promise<BridgeEnd>;
  /** Ends the session from the gateway: `message` (a Realtime `error` event) first, when given. */
  end(code: number, reason: string, message?: string): void;
}

/** Codes a peer may send in a close frame (RFC 6455 §7.4); 1005, 1006 and 1015 only describe a close. */
function sendableCode(code: number): boolean {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

/** Closes `socket` as its peer closed the other side; an abnormal end is told as such. */
function closeLike(socket: WebSocket, code: number, reason: Buffer, fallback: number, fallbackReason: string): void {
  if (socket.readyState === WebSocket.CLOSED) return;
  // A paused socket would not read the close frame that completes the handshake.
  socket.resume();
  if (sendableCode(code)) socket.close(code, reason.length <= 123 ? reason : undefined);
  else if (code === 1005) socket.close();
  else socket.close(fallback, fallbackReason);
}

/** How long a closing socket may take to finish its handshake before it is cut. */
const CLOSE_GRACE_MS = 5000;

export function bridgeSockets(client: WebSocket, upstream: WebSocket, options: BridgeOptions): Bridge {
  let closedBy: BridgeEnd['closedBy'] | undefined;
  let firstCode = 1005;
  const idle = setTimeout(() => end(1001, 'the session was idle too long'), options.idleMs);
  idle.unref();
  const touch = () => idle.refresh();

  /** Sends `data` on `to`; reading `from` stops while `to` has too much waiting. */
  const forward = (from: WebSocket, to: WebSocket, data: Buffer, binary: boolean) => {
    touch();
    if (to.readyState !== WebSocket.OPEN) return;
    to.send(data, { binary }, () => {
      if (from.isPaused && to.bufferedAmount <= options.lowWaterBytes) from.resume();
    });
    if (to.bufferedAmount > options.highWaterBytes) from.pause();
  };

  client.on('message', (data: Buffer, binary) => forward(client, upstream, data, binary));
  upstream.on('message', (data: Buffer, binary) => {
    if (!binary) options.onUpstreamText(data);
    forward(upstream, client, data, binary);
  });
  for (const socket of [client, upstream]) {
    socket.on('ping', touch);
    socket.on('pong', touch);
    // Errors (a reset, a bad frame) end in a close event, handled below; they must not go unheard.
    socket.on('error', () => {});
  }

  const cutLater = (socket: WebSocket) => {
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };

  function end(code: number, reason: string, message?: string): void {
    if (closedBy) return;
    closedBy = 'gateway';
    firstCode = code;
    if (message && client.readyState === WebSocket.OPEN) client.send(message);
    for (const socket of [client, upstream]) {
      closeLike(socket, code, Buffer.from(reason), 1011, reason);
      cutLater(socket);
    }
  }

  const closed = (socket: WebSocket) =>
    new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) resolve();
      else socket.once('close', () => resolve());
    });

  client.once('close', (code, reason) => {
    if (closedBy) return;
    closedBy = 'client';
    firstCode = code;
    closeLike(upstream, code, reason, 1001, 'the client went away');
    cutLater(upstream);
  });
  upstream.once('close', (code, reason) => {
    if (closedBy) return;
    closedBy = 'upstream';
    firstCode = code;
    closeLike(client, code, reason, 1011, 'the upstream connection was lost');
    cutLater(client);
  });

  // The upstream was held paused while the client's upgrade was answered; it may have gone meanwhile.
  if (upstream.readyState === WebSocket.OPEN) upstream.resume();
  else end(1011, 'the upstream connection was lost');

  const done = Promise.all([closed(client), closed(upstream)]).then(() => {
    clearTimeout(idle);
    return { closedBy: closedBy ?? 'gateway', code: firstCode };
  });
  return { done, end };
}
