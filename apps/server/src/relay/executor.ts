import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';

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

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export interface UpstreamClient {
  send(upstream: UpstreamRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

export function createUpstreamClient(): UpstreamClient {
  const directAgent = new Agent({
    keepAliveTimeout: 30_000,
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
    connect: { timeout: 10_000 },
  });
  const proxyAgents = new Map<string, ProxyAgent>();
  const dispatcherFor = (proxy: string): Dispatcher => {
    if (!proxy) return directAgent;
    let agent = proxyAgents.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxy, keepAliveTimeout: 30_000 });
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
    async close() {
      await Promise.allSettled([directAgent.close(), ...[...proxyAgents.values()].map((agent) => agent.close())]);
      proxyAgents.clear();
    },
  };
}

/** Reads a whole body up to `limit` bytes; beyond it, the read stops and an error is thrown. */
export async function readBody(body: AsyncIterable<Buffer | Uint8Array>, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.length;
    if (size > limit) throw new Error(`upstream response is larger than ${limit} bytes`);
    parts.push(Buffer.from(part));
  }
  return Buffer.concat(parts);
}
