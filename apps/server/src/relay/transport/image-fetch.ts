import { type LookupAddress, lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';
import type { OptionService } from '../../api/option/service.js';
import { AppError } from '../../platform/errors.js';
import { isPrivateAddress } from '../../platform/private-address.js';
import { readBody } from './executor.js';

/**
 * Fetches an image a chat message names by URL, for upstreams that take images only inline
 * (base64): through ChatImageRequestProxy when set, at most MAX_BYTES and TIMEOUT_MS, and never
 * to a loopback, private or link-local address unless ChatImageAllowPrivate says so. Without a
 * proxy every address a name resolves to is checked when the connection is made, so a name that
 * changes its answer between a check and the connection cannot slip through.
 */
export interface ImageFetcher {
  /** The image as a `data:` URL; an AppError (400) naming the problem when it cannot be had. */
  dataUrl(url: string): Promise<string>;
}

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const MAGIC: Array<[mime: string, bytes: number[], offset?: number]> = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x57, 0x45, 0x42, 0x50], 8],
];

/** The image type the bytes start with, for servers that label images wrongly. */
function sniff(bytes: Buffer): string | undefined {
  return MAGIC.find(([, magic, offset = 0]) => magic.every((byte, index) => bytes[offset + index] === byte))?.[0];
}

function refused(url: string, reason: string): AppError {
  // The URL is the client's own; the reason never carries a resolved address.
  return AppError.badRequest(`image_url: the image at ${url.slice(0, 200)} could not be fetched: ${reason}`);
}

type Resolver = typeof lookup;

/** DNS that refuses names resolving to private addresses (used for direct connections). */
function guardedLookup(allowPrivate: () => boolean, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (!allowPrivate() && list.some((entry) => isPrivateAddress(entry.address))) {
        const privateName = Object.assign(new Error('the address is private'), { code: 'EPRIVATEADDRESS' });
        return callback(privateName, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}

export function createImageFetcher(
  options: Pick<OptionService, 'get' | 'getBoolean'>,
  /** The system's DNS; tests give names of their own. */
  resolve: Resolver = lookup,
): ImageFetcher & { close(): Promise<void> } {
  const allowPrivate = () => options.getBoolean('ChatImageAllowPrivate');
  const direct = new Agent({ connect: { lookup: guardedLookup(allowPrivate, resolve) } });
  const proxies = new Map<string, ProxyAgent>();
  const dispatcherFor = (): Dispatcher => {
    const proxy = options.get('ChatImageRequestProxy').trim();
    if (!proxy) return direct;
    let agent = proxies.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxy });
      proxies.set(proxy, agent);
    }
    return agent;
  };

  return {
    async dataUrl(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw refused(url, 'it is not a URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        throw refused(url, 'only http(s) URLs are fetched');
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const literalPrivate = (isIP(host) !== 0 && isPrivateAddress(host)) || /^localhost\.?$/i.test(host);
      if (literalPrivate && !allowPrivate()) throw refused(url, 'it points to a private or loopback address');
      let answer: Dispatcher.ResponseData;
      try {
        answer = await request(parsed, {
          dispatcher: dispatcherFor(),
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
          headers: { accept: 'image/*', 'user-agent': 'one-hub' },
        });
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw refused(
          url,
          code === 'EPRIVATEADDRESS' ? 'it points to a private or loopback address' : (code ?? 'network error'),
        );
      }
      if (answer.statusCode !== 200) {
        // Read off (a little) so the connection can be reused; never an error of its own.
        await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        throw refused(url, `the server answered HTTP ${answer.statusCode}`);
      }
      const bytes = await readBody(answer.body, MAX_IMAGE_BYTES).catch(() => {
        throw refused(url, `it is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB or broke off`);
      });
      const declared =
        String(answer.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim()
          .toLowerCase() ?? '';
      const mime = declared.startsWith('image/') ? declared : sniff(bytes);
      if (!mime) throw refused(url, 'it is not an image');
      return `data:${mime};base64,${bytes.toString('base64')}`;
    },
    async close() {
      await Promise.allSettled([direct.close(), ...[...proxies.values()].map((agent) => agent.close())]);
    },
  };
}
