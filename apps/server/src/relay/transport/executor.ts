import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';
import { dispatchStream, dispatchWhole, type StreamedResponse, type WholeResponse } from './dispatch.js';

export type { StreamedResponse, WholeResponse } from './dispatch.js';

/**
 * The only code that talks to upstreams: pooled keep-alive connections (undici, not global fetch),
 * an optional per-channel proxy, timeouts, and abort when the client goes away.
 */
export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Buffer;
  proxy?: string;
  signal?: AbortSignal;
}

/**
 * A request `send` takes: any method, and a body that may be a stream read as it is sent (a raw
 * pass-through forwards the client's body without holding it).
 */
export interface SentRequest extends Omit<UpstreamRequest, 'method' | 'body'> {
  method?: UpstreamRequest['method'] | 'PUT' | 'PATCH' | 'HEAD';
  body?: string | Buffer | Readable | null;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export interface UpstreamClient {
  send(upstream: SentRequest): Promise<UpstreamResponse>;
  /**
   * Sends and reads the whole answer, up to `limit` bytes (beyond it the call fails). Cheaper than
   * `send` for bodies that are read whole anyway: no stream object, no URL parsing per call.
   */
  fetchWhole(upstream: Omit<UpstreamRequest, 'signal'>, limit: number): Promise<WholeResponse>;
  /** Sends and answers at the upstream's headers; the body is read with the response's `pump`. */
  openStream(upstream: Omit<UpstreamRequest, 'signal'>): Promise<StreamedResponse>;
  close(): Promise<void>;
}

/**
 * How long an upstream may keep a request waiting (config.ts, UPSTREAM_*_TIMEOUT_MS). A call that
 * runs out of one fails with undici's timeout error, which `networkFailure` reads as the channel's
 * failure: retried elsewhere before any byte reached the client, a broken-off answer after.
 */
export interface UpstreamTimeouts {
  /** Opening the connection (TCP and TLS, or the proxy's). */
  connectMs: number;
  /** Streamed requests: until the upstream's headers. */
  firstByteMs: number;
  /** Whole (non-streamed) answers: until the headers, which come once the answer is generated. */
  answerMs: number;
  /** Between two chunks of a body. */
  idleMs: number;
}

export const DEFAULT_UPSTREAM_TIMEOUTS: Readonly<UpstreamTimeouts> = Object.freeze({
  connectMs: 10_000,
  firstByteMs: 120_000,
  answerMs: 300_000,
  idleMs: 120_000,
});

/**
 * The proxy as undici takes it: http(s) proxies are tunnelled with CONNECT, socks5 ones dialled by
 * undici's SOCKS5 client, which always hands the host name to the proxy to resolve, as
 * `socks5h://` asks (and as One Hub's dialer does for both), so `socks5h` is read as `socks5`.
 */
export const proxyUri = (proxy: string): string => proxy.replace(/^socks5h:/i, 'socks5:');

export function createUpstreamClient(timeouts: UpstreamTimeouts = DEFAULT_UPSTREAM_TIMEOUTS): UpstreamClient {
  const agentOptions = {
    keepAliveTimeout: 30_000,
    headersTimeout: timeouts.answerMs,
    bodyTimeout: timeouts.idleMs,
    connect: { timeout: timeouts.connectMs },
  };
  const directAgent = new Agent(agentOptions);
  const proxyAgents = new Map<string, ProxyAgent>();
  const dispatcherFor = (proxy: string): Dispatcher => {
    if (!proxy) return directAgent;
    let agent = proxyAgents.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxyUri(proxy), ...agentOptions });
      proxyAgents.set(proxy, agent);
    }
    return agent;
  };
  return {
    async send(upstream) {
      const response = await request(upstream.url, {
        method: upstream.method ?? 'POST',
        headers: upstream.headers,
        body: upstream.body ?? null,
        dispatcher: dispatcherFor(upstream.proxy ?? ''),
        signal: upstream.signal ?? null,
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    fetchWhole(upstream, limit) {
      return dispatchWhole(dispatcherFor(upstream.proxy ?? ''), upstream, limit);
    },
    openStream(upstream) {
      return dispatchStream(dispatcherFor(upstream.proxy ?? ''), upstream, timeouts.firstByteMs);
    },
    async close() {
      await Promise.allSettled([directAgent.close(), ...[...proxyAgents.values()].map((agent) => agent.close())]);
      proxyAgents.clear();
    },
  };
}
