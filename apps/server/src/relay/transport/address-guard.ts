import { type LookupAddress, lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';
import { isPrivateAddress } from '../../platform/private-address.js';

/**
 * The one guard for every server-side request to an address a user or an upstream chose (chat
 * images, Midjourney task images, Midjourney notifyHooks): never to a loopback, private or
 * link-local address unless the guard's setting allows it. A URL whose host is such an address
 * outright is refused before any connection; a name is resolved when the connection is made and
 * refused if any of its addresses is private, so a name that changes its answer between a check and
 * the connection cannot slip through. No redirect is followed (undici's `request` follows none).
 * Through an outbound proxy, the proxy resolves names: only the literal check applies.
 */

const PRIVATE_ADDRESS_CODE = 'EPRIVATEADDRESS';

type Resolver = typeof lookup;

export interface GuardedRequest {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** For the headers, and between two chunks of the answer. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** An outbound proxy (an admin's setting); '' or absent: a direct, guarded connection. */
  proxy?: string;
}

export interface AddressGuard {
  /** Sends the request; fails with code EPRIVATEADDRESS (isPrivateAddressRefusal) when the guard refuses. */
  request(url: URL, init: GuardedRequest): Promise<Dispatcher.ResponseData>;
  /** True when the URL names a private address or localhost outright and private addresses are not allowed. */
  refusesLiteral(url: URL): boolean;
  close(): Promise<void>;
}

function privateAddressError(): Error {
  return Object.assign(new Error('the address is private'), { code: PRIVATE_ADDRESS_CODE });
}

/** Whether a request failed because the guard refused the address it named or resolved to. */
export function isPrivateAddressRefusal(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === PRIVATE_ADDRESS_CODE;
}

/** DNS that refuses names resolving to private addresses (used for direct connections). */
function guardedLookup(allowPrivate: () => boolean, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate() && list.some((entry) => isPrivateAddress(entry.address))) {
        return callback(privateAddressError(), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

export function createAddressGuard(
  /** Read at every request, so a changed setting applies at once. */
  allowPrivate: () => boolean,
  /** The system's DNS; tests give names of their own. */
  resolve: Resolver = lookup,
): AddressGuard {
  const direct = new Agent({ connect: { lookup: guardedLookup(allowPrivate, resolve) } });
  const proxies = new Map<string, ProxyAgent>();
  const dispatcherFor = (proxy: string): Dispatcher => {
    if (!proxy) return direct;
    let agent = proxies.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxy });
      proxies.set(proxy, agent);
    }
    return agent;
  };
  const refusesLiteral = (url: URL) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = (isIP(host) !== 0 && isPrivateAddress(host)) || /^localhost\.?$/i.test(host);
    return literal && !allowPrivate();
  };
  return {
    refusesLiteral,
    async request(url, init) {
      if (refusesLiteral(url)) throw privateAddressError();
      return request(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body ?? null,
        dispatcher: dispatcherFor(init.proxy?.trim() ?? ''),
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
        signal: init.signal ?? null,
      });
    },
    async close() {
      await Promise.allSettled([direct.close(), ...[...proxies.values()].map((agent) => agent.close())]);
    },
  };
}
