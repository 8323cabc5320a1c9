import { createSign, createVerify, type KeyObject } from 'node:crypto';

/**
 * Alipay open-platform RSA2 (SHA256withRSA, base64). A request is signed over its parameters
 * except `sign` (so `sign_type` is covered); an asynchronous notification is verified over its
 * parameters except `sign` and `sign_type`. Either way: values not empty, names sorted by their
 * bytes, joined as `name=value&…` with the values as they are, not URL-encoded.
 */

export function signingContent(params: Readonly<Record<string, string>>, excluded: readonly string[]): string {
  return Object.keys(params)
    .filter((name) => !excluded.includes(name) && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** Adds `sign` to a request's parameters (which must already hold `sign_type=RSA2`). */
export function signRequest(params: Readonly<Record<string, string>>, privateKey: KeyObject): Record<string, string> {
  const content = signingContent(params, ['sign']);
  const sign = createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
  return { ...params, sign };
}

/** True when `sign` (base64) is Alipay's signature over `content`; false for anything unreadable. */
export function rsa2Verifies(content: string | Buffer, sign: string, publicKey: KeyObject): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(sign)) return false;
  try {
    return createVerify('RSA-SHA256').update(content).verify(publicKey, sign, 'base64');
  } catch {
    return false;
  }
}
