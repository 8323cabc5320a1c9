import { createDecipheriv, createSign, createVerify, type KeyObject, randomBytes } from 'node:crypto';

/**
 * WeChat Pay APIv3's signatures and encryption (pay.weixin.qq.com "签名生成", "签名验证",
 * "如何解密证书和回调报文"). Requests are signed with the merchant's API private key; answers and
 * callbacks are signed with WeChat Pay's key and checked with its public key; the callback's
 * `resource` is sealed with AES-256-GCM under the APIv3 key.
 */

export const AUTHORIZATION_SCHEME = 'WECHATPAY2-SHA256-RSA2048';

/** WeChat Pay advises refusing answers and callbacks whose timestamp is more than five minutes off. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export interface MerchantCredentials {
  mchId: string;
  serialNo: string;
  privateKey: KeyObject;
}

/**
 * The `Authorization` header of one request: SHA256withRSA over five lines (method, path with
 * query, timestamp, nonce, body), each ending in `\n`, the last one included.
 */
export function authorizationHeader(
  merchant: MerchantCredentials,
  request: { method: string; pathWithQuery: string; body: string },
  nowSeconds: number,
): string {
  const nonce = randomBytes(16).toString('hex').toUpperCase();
  const message = `${request.method}\n${request.pathWithQuery}\n${nowSeconds}\n${nonce}\n${request.body}\n`;
  const signature = createSign('RSA-SHA256').update(message, 'utf8').sign(merchant.privateKey, 'base64');
  const fields = [
    `mchid="${merchant.mchId}"`,
    `nonce_str="${nonce}"`,
    `signature="${signature}"`,
    `timestamp="${nowSeconds}"`,
    `serial_no="${merchant.serialNo}"`,
  ];
  return `${AUTHORIZATION_SCHEME} ${fields.join(',')}`;
}

/** WeChat Pay's verification key: its public key and the id it puts in `Wechatpay-Serial`. */
export interface PlatformKey {
  id: string;
  publicKey: KeyObject;
}

type HeaderValue = string | string[] | undefined;

const single = (value: HeaderValue): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();

/**
 * Checks the `Wechatpay-*` headers of an answer or a callback over the raw body bytes: the key id,
 * the timestamp's freshness (a captured callback cannot be replayed later), then the signature
 * over "timestamp\nnonce\nbody\n". Returns why it fails, or undefined when it holds.
 */
export function signatureProblem(
  headers: Readonly<Record<string, HeaderValue>>,
  body: Buffer,
  platform: PlatformKey,
  nowSeconds: number,
): string | undefined {
  const timestamp = single(headers['wechatpay-timestamp']);
  const nonce = single(headers['wechatpay-nonce']);
  const signature = single(headers['wechatpay-signature']);
  const serial = single(headers['wechatpay-serial']);
  if (!timestamp || !nonce || !signature || !serial) {
    return 'missing Wechatpay-Timestamp, Wechatpay-Nonce, Wechatpay-Signature or Wechatpay-Serial';
  }
  if (serial.toUpperCase() !== platform.id.toUpperCase()) {
    return `Wechatpay-Serial ${serial} is not the configured wechatpay_public_key_id`;
  }
  if (!/^\d{1,12}$/.test(timestamp)) return 'Wechatpay-Timestamp is not a number of seconds';
  if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    return `Wechatpay-Timestamp ${timestamp} is more than five minutes from now (expired or replayed)`;
  }
  const message = Buffer.concat([Buffer.from(`${timestamp}\n${nonce}\n`, 'utf8'), body, Buffer.from('\n', 'utf8')]);
  let valid = false;
  try {
    valid = createVerify('RSA-SHA256').update(message).verify(platform.publicKey, signature, 'base64');
  } catch {
    valid = false;
  }
  return valid ? undefined : 'Wechatpay-Signature does not match the body';
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string | undefined;
}

const GCM_TAG_BYTES = 16;

/**
 * Opens a callback's `resource`: AEAD_AES_256_GCM with the APIv3 key, the resource's nonce and
 * associated data, the base64 ciphertext ending in the 16-byte tag. Throws when it does not open,
 * which is what a wrong key or an altered ciphertext looks like.
 */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM')
    throw new Error(`algorithm ${resource.algorithm} is not AEAD_AES_256_GCM`);
  const sealed = Buffer.from(resource.ciphertext, 'base64');
  if (sealed.length <= GCM_TAG_BYTES) throw new Error('ciphertext is too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'), {
    authTagLength: GCM_TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
