import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Epay's signature: the non-empty parameters except `sign` and `sign_type`, sorted by name,
 * joined as `k1=v1&k2=v2`, the merchant key appended, MD5 in lower-case hex. The simulator in
 * test/payments/epay signs with this same rule, as an Epay server does.
 */
export function epaySign(params: Readonly<Record<string, string>>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5').update(`${text}${key}`, 'utf8').digest('hex');
}

/** Compares in constant time so the signature cannot be guessed byte by byte. */
export function epaySignatureMatches(params: Readonly<Record<string, string>>, key: string): boolean {
  const given = Buffer.from((params.sign ?? '').toLowerCase(), 'utf8');
  const expected = Buffer.from(epaySign(params, key), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
