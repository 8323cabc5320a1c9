import { generateKeyPairSync, type KeyObject, randomBytes, randomInt } from 'node:crypto';

/** The merchant account the simulator plays WeChat Pay for: ids and keys, and WeChat Pay's rules for a Native prepay. */

export interface SimulatorKeys {
  appId: string;
  mchId: string;
  /** Serial number of the merchant API certificate, sent in `serial_no`. */
  merchantSerial: string;
  merchantPrivateKey: string;
  merchantPublicKey: KeyObject;
  apiV3Key: string;
  /** The "WeChat Pay public key" and its id, what the administrator pastes. */
  wechatpayPublicKey: string;
  wechatpayPublicKeyId: string;
  wechatpayPrivateKey: KeyObject;
}

export const rsaPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }).toString();
export const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');

export function createKeys(): SimulatorKeys {
  const merchant = rsaPair();
  const platform = rsaPair();
  const mchId = `16${digits(8)}`;
  return {
    appId: `wx${randomBytes(8).toString('hex')}`,
    mchId,
    merchantSerial: randomBytes(20).toString('hex').toUpperCase(),
    merchantPrivateKey: pem(merchant.privateKey, 'pkcs8'),
    merchantPublicKey: merchant.publicKey,
    apiV3Key: randomBytes(16).toString('hex'),
    wechatpayPublicKey: pem(platform.publicKey, 'spki'),
    wechatpayPublicKeyId: `PUB_KEY_ID_01${mchId}${digits(14)}`,
    wechatpayPrivateKey: platform.privateKey,
  };
}

/** The gateway config an administrator would save for this account. */
export function gatewayConfig(keys: SimulatorKeys, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    app_id: keys.appId,
    mch_id: keys.mchId,
    mch_certificate_serial_number: keys.merchantSerial,
    mch_apiv3_key: keys.apiV3Key,
    mch_private_key: keys.merchantPrivateKey,
    wechatpay_public_key: keys.wechatpayPublicKey,
    wechatpay_public_key_id: keys.wechatpayPublicKeyId,
    pay_type: 'Native',
    ...overrides,
  };
}

export interface Prepay {
  out_trade_no: string;
  description: string;
  notify_url: string;
  amount: { total: number; currency: string };
}

/**
 * WeChat Pay's field rules for a Native prepay (required fields, lengths, fen, CNY): a problem, or
 * the order. One difference: WeChat Pay wants an https `notify_url`; loopback tests use http.
 */
export function prepayProblem(text: string, keys: SimulatorKeys): string | Prepay {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'the body is not JSON';
  }
  const amount = body.amount as { total?: unknown; currency?: unknown } | undefined;
  if (body.appid !== keys.appId) return 'appid does not belong to this merchant';
  if (body.mchid !== keys.mchId) return 'mchid does not match the signing merchant';
  if (typeof body.description !== 'string' || !body.description || Buffer.byteLength(body.description) > 127) {
    return 'description must be 1 to 127 bytes';
  }
  if (typeof body.out_trade_no !== 'string' || !/^[0-9A-Za-z_\-|*]{6,32}$/.test(body.out_trade_no)) {
    return 'out_trade_no must be 6 to 32 letters, digits or _-|*';
  }
  if (typeof body.notify_url !== 'string' || !/^https?:\/\/[^?#]+$/.test(body.notify_url)) {
    return 'notify_url must be a URL without a query';
  }
  if (
    body.time_expire !== undefined &&
    (typeof body.time_expire !== 'string' || Number.isNaN(Date.parse(body.time_expire)))
  ) {
    return 'time_expire must be an RFC 3339 time';
  }
  if (!amount || !Number.isInteger(amount.total) || (amount.total as number) < 1) {
    return 'amount.total must be a whole number of fen, at least 1';
  }
  if (amount.currency !== undefined && amount.currency !== 'CNY') return 'amount.currency must be CNY';
  return body as unknown as Prepay;
}
