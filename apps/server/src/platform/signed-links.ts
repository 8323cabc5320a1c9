import { hkdfSync } from 'node:crypto';
import { hmacBase64Url, safeEqual } from './crypto.js';

/**
 * Signatures for links the server hands out and later must recognise without a key or a session:
 * the callback address given to a Midjourney proxy (signed over the channel), the task image
 * addresses given to clients (signed over the task). Each purpose has its own key derived from the
 * server secret (as the secret box's keys are), so a signature made for one purpose is worthless
 * for another, and changing the secret invalidates every link.
 */
export interface LinkSigner {
  sign(purpose: LinkPurpose, value: string): string;
  /** Constant-time check; false for a missing or malformed signature. */
  verify(purpose: LinkPurpose, value: string, signature: unknown): boolean;
}

export type LinkPurpose = 'mj-notify' | 'mj-image';

/** 128 bits of the HMAC are enough for a link and keep URLs short. */
const SIGNATURE_CHARS = 22;

export function createLinkSigner(serverSecret: string): LinkSigner {
  const keys = new Map<LinkPurpose, string>();
  const keyOf = (purpose: LinkPurpose): string => {
    let key = keys.get(purpose);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', serverSecret, 'one-hub', `signed-link:${purpose}`, 32)).toString('hex');
      keys.set(purpose, key);
    }
    return key;
  };
  const sign = (purpose: LinkPurpose, value: string) => hmacBase64Url(keyOf(purpose), value).slice(0, SIGNATURE_CHARS);
  return {
    sign,
    verify(purpose, value, signature) {
      return typeof signature === 'string' && safeEqual(signature, sign(purpose, value));
    },
  };
}

/** `/mj/image/<id>?sig=…`: where a Midjourney task's image is served, signed for that task. */
export function signedMjImagePath(links: LinkSigner, mjId: string): string {
  return `/mj/image/${encodeURIComponent(mjId)}?sig=${links.sign('mj-image', mjId)}`;
}
