import { createCipheriv, createSign, createVerify, type KeyObject, randomBytes } from 'node:crypto';

/**
 * WeChat Pay's side of APIv3's signatures, written from its documentation ("签名生成", "签名验证",
 * "如何解密证书和回调报文") independently of the gateway's code, so that a mistake shared by both
 * sides cannot pass unnoticed: the merchant's `Authorization` is checked here as WeChat Pay checks
 * it, and answers and callbacks are signed and sealed here as WeChat Pay does.
 */

export interface AuthorizationCheck {
  ok: boolean;
  /** Why WeChat Pay would answer 401 SIGN_ERROR. */
  problem?: string;
  fields: Record<string, string>;
}

/** Parses `WECHATPAY2-SHA256-RSA2048 k="v",…` and verifies its signature over the five-line message. */
export function checkAuthorization(
  header: string | undefined,
  request: { method: string; pathWithQuery: string; body: string },
  merchant: { mchId: string; serialNo: string; publicKey: KeyObject },
  nowSeconds: number,
): AuthorizationCheck {
  const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header ?? '');
  if (!match?.[1]) return { ok: false, problem: 'Authorization is not WECHATPAY2-SHA256-RSA2048', fields: {} };
  const fields: Record<string, string> = {};
  for (const part of match[1].matchAll(/(\w+)="([^"]*)"/g)) fields[part[1] as string] = part[2] as string;
  const { mchid, nonce_str: nonce, signature, timestamp, serial_no: serial } = fields;
  if (!mchid || !nonce || !signature || !timestamp || !serial)
    return { ok: false, problem: 'Authorization lacks a field', fields };
  if (mchid !== merchant.mchId) return { ok: false, problem: `mchid ${mchid} is unknown`, fields };
  if (serial !== merchant.serialNo)
    return { ok: false, problem: `serial_no ${serial} is not the merchant certificate`, fields };
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return { ok: false, problem: 'timestamp is stale', fields };
  const message = `${request.method}\n${request.pathWithQuery}\n${timestamp}\n${nonce}\n${request.body}\n`;
  const ok = createVerify('RSA-SHA256').update(message, 'utf8').verify(merchant.publicKey, signature, 'base64');
  return ok ? { ok, fields } : { ok, problem: 'signature does not verify with the merchant public key', fields };
}

/** The `Wechatpay-*` headers WeChat Pay puts on an answer or a callback: SHA256withRSA over "timestamp\nnonce\nbody\n". */
export function wechatpayHeaders(
  body: string,
  key: KeyObject,
  serial: string,
  timestamp: number,
): Record<string, string> {
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8').sign(key, 'base64');
  return {
    'wechatpay-timestamp': String(timestamp),
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': serial,
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
  };
}

/** AEAD_AES_256_GCM with the APIv3 key: base64 of ciphertext followed by the 16-byte tag. */
export function sealResource(plain: string, apiV3Key: string, associatedData: string) {
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    original_type: 'transaction',
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: sealed.toString('base64'),
    associated_data: associatedData,
    nonce,
  };
}

export interface PaidOrder {
  appid: string;
  mchid: string;
  outTradeNo: string;
  transactionId: string;
  total: number;
}

/** What a notification says; every field can be bent to make the callbacks tests need. */
export interface NotificationOptions {
  eventType?: string;
  tradeState?: string;
  total?: number;
  payerTotal?: number;
  currency?: string;
  mchid?: string;
  appid?: string;
  algorithm?: string;
}

/** The JSON body of a "支付成功回调通知", its transaction sealed under `apiV3Key`. */
export function notificationBody(order: PaidOrder, apiV3Key: string, options: NotificationOptions = {}): string {
  const total = options.total ?? order.total;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const transaction = {
    appid: options.appid ?? order.appid,
    mchid: options.mchid ?? order.mchid,
    out_trade_no: order.outTradeNo,
    transaction_id: order.transactionId,
    trade_type: 'NATIVE',
    trade_state: options.tradeState ?? 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    attach: '',
    success_time: now,
    payer: { openid: 'oSimulatorPayer0000000000000' },
    amount: {
      total,
      payer_total: options.payerTotal ?? total,
      currency: options.currency ?? 'CNY',
      payer_currency: 'CNY',
    },
  };
  const resource = sealResource(JSON.stringify(transaction), apiV3Key, 'transaction');
  return JSON.stringify({
    id: `EV-${randomBytes(8).toString('hex')}`,
    create_time: now,
    resource_type: 'encrypt-resource',
    event_type: options.eventType ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: { ...resource, algorithm: options.algorithm ?? resource.algorithm },
  });
}
