import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomInt } from 'node:crypto';

/**
 * Alipay's side of the signing rules, written here from Alipay's documentation and not imported
 * from the gateway, so a mistake in the gateway's signing fails the tests instead of agreeing with
 * itself. Alipay verifies a request over every parameter but `sign`; it signs a notification over
 * every parameter but `sign` and `sign_type`; empty values are left out; names in byte order.
 */

export type KeyFormat = 'bare-pkcs1' | 'bare-pkcs8' | 'pem-pkcs1' | 'pem-pkcs8';

export const rsaPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

/** A private key as Alipay's key tool (bare base64) or OpenSSL (PEM) writes it. */
export function privateKeyText(key: KeyObject, format: KeyFormat): string {
  const type = format.endsWith('pkcs1') ? 'pkcs1' : 'pkcs8';
  if (format.startsWith('pem')) return key.export({ format: 'pem', type }).toString();
  return key.export({ format: 'der', type }).toString('base64');
}

/** A public key as the Alipay console shows it (bare base64 SubjectPublicKeyInfo) or as PEM. */
export function publicKeyText(key: KeyObject, format: 'bare' | 'pem' = 'bare'): string {
  return format === 'pem'
    ? key.export({ format: 'pem', type: 'spki' }).toString()
    : key.export({ format: 'der', type: 'spki' }).toString('base64');
}

function contentOf(params: Record<string, string>, leaveOut: string[]): string {
  const names = Object.keys(params).filter((name) => params[name] && !leaveOut.includes(name));
  names.sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
  return names.map((name) => `${name}=${params[name]}`).join('&');
}

const rsa2 = (content: string | Buffer, key: KeyObject) =>
  createSign('sha256WithRSAEncryption').update(content).sign(key).toString('base64');

/** Alipay's check of a merchant's request. */
export function requestSignatureValid(params: Record<string, string>, merchantPublicKey: KeyObject): boolean {
  if (!params.sign) return false;
  return createVerify('sha256WithRSAEncryption')
    .update(contentOf(params, ['sign']))
    .verify(merchantPublicKey, Buffer.from(params.sign, 'base64'));
}

/** Signs a notification's parameters as Alipay does (adds `sign`). */
export function signNotification(params: Record<string, string>, alipayPrivateKey: KeyObject): Record<string, string> {
  return { ...params, sign: rsa2(contentOf(params, ['sign', 'sign_type']), alipayPrivateKey) };
}

/**
 * A synchronous answer as Alipay writes it: `{"<method>_response":{…},"sign":"…"}`, the signature
 * over the member's text. The member escapes `/` as `\/` (valid JSON a re-serialiser would not
 * reproduce), so only a gateway that checks the bytes as sent passes.
 */
export function answerBody(method: string, fields: Record<string, string>, signer: KeyObject | undefined): string {
  const member = JSON.stringify(fields).replace(/\//g, '\\/');
  const name = `${method.replace(/\./g, '_')}_response`;
  if (!signer) return `{"${name}":${member}}`;
  return `{"${name}":${member},"sign":"${rsa2(Buffer.from(member, 'utf8'), signer)}"}`;
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time, as Alipay writes its times. */
export function beijingTime(at: number = Date.now()): string {
  const shifted = new Date(at + 8 * 3600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

/** Seconds between a Beijing-time stamp and now, or NaN when it is not `yyyy-MM-dd HH:mm:ss`. */
export function beijingSkewSeconds(stamp: string): number {
  const match = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(stamp);
  if (!match) return Number.NaN;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const utc = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second) - 8 * 3600_000;
  return Math.abs(Date.now() - utc) / 1000;
}

/** A merchant's key pair and Alipay's, and the ids Alipay gives them. */
export function createKeys() {
  const merchant = rsaPair();
  const alipay = rsaPair();
  return {
    appId: `2021${randomDigits(12)}`,
    sellerId: `2088${randomDigits(12)}`,
    merchantPrivateKey: merchant.privateKey,
    merchantPublicKey: merchant.publicKey,
    alipayPrivateKey: alipay.privateKey,
    alipayPublicKey: alipay.publicKey,
  };
}

export type SimulatorKeys = ReturnType<typeof createKeys>;

export const randomDigits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');
