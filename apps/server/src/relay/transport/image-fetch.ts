import { lookup } from 'node:dns';
import type { Dispatcher } from 'undici';
import type { OptionReader } from '../../domain/options.js';
import { AppError } from '../../platform/errors.js';
import { readBody } from '../../platform/read-body.js';
import { createAddressGuard, isPrivateAddressRefusal } from './address-guard.js';

/**
 * Fetches an image a chat message names by URL, for upstreams that take images only inline
 * (base64): through ChatImageRequestProxy when set, at most MAX_BYTES and TIMEOUT_MS, and never
 * to a loopback, private or link-local address unless ChatImageAllowPrivate says so (the address
 * guard, address-guard.ts, which Midjourney's images and notifyHooks go through too).
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

export function createImageFetcher(
  options: Pick<OptionReader, 'get' | 'getBoolean'>,
  /** The system's DNS; tests give names of their own. */
  resolve: typeof lookup = lookup,
): ImageFetcher & { close(): Promise<void> } {
  const guard = createAddressGuard(() => options.getBoolean('ChatImageAllowPrivate'), resolve);
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
      let answer: Dispatcher.ResponseData;
      try {
        answer = await guard.request(parsed, {
          headers: { accept: 'image/*', 'user-agent': 'one-hub' },
          timeoutMs: TIMEOUT_MS,
          proxy: options.get('ChatImageRequestProxy'),
        });
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw refused(
          url,
          isPrivateAddressRefusal(error) ? 'it points to a private or loopback address' : (code ?? 'network error'),
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
    close: () => guard.close(),
  };
}
