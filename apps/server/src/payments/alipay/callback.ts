import type { GatewayCallback, GatewayCallbackResult } from '../gateway.js';
import { centsOf } from '../money.js';
import { readConfig } from './config.js';
import { rsa2Verifies, signingContent } from './sign.js';

/**
 * Alipay's asynchronous notification (异步通知): a form POST, `application/x-www-form-urlencoded`,
 * or the same parameters on a GET query. Verified over every parameter but `sign` and `sign_type`,
 * values URL-decoded, with Alipay's public key. Alipay re-sends it for 25 hours until it reads
 * `success`, so a repeat is normal; crediting once is the order service's job.
 */

const PAID_STATUSES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

const reject = (reason: string): GatewayCallbackResult => ({ kind: 'rejected', reason });

/** The notification's parameters, or why they cannot be read; a repeated name is ambiguous, so refused. */
function readParams(callback: GatewayCallback): Record<string, string> | string {
  const hasBody = callback.rawBody.length > 0;
  if (!hasBody) return { ...callback.query };
  const type = (callback.headers['content-type'] ?? '').toLowerCase();
  if (type && !type.startsWith('application/x-www-form-urlencoded')) return `content type ${type} is not a form`;
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(callback.rawBody.toString('utf8'))) {
    if (Object.hasOwn(params, name)) return `parameter ${name} appears twice`;
    params[name] = value;
  }
  return params;
}

/** A refund is notified with the trade's status unchanged (TRADE_SUCCESS); only these fields tell it apart. */
function refundNotice(params: Record<string, string>): boolean {
  if (params.gmt_refund || params.out_biz_no) return true;
  const refunded = params.refund_fee ?? '';
  return AMOUNT.test(refunded) && centsOf(refunded) > 0;
}

/** Reads a verified, signed notice into a result; the signature has already been checked. */
function readSigned(params: Record<string, string>): GatewayCallbackResult {
  const status = params.trade_status ?? '';
  if (!status) return reject('no trade_status');
  if (!PAID_STATUSES.has(status)) return { kind: 'ignored', reason: `trade_status ${status}` };
  if (refundNotice(params)) return { kind: 'ignored', reason: 'a refund notice, not a payment' };
  const tradeNo = params.out_trade_no ?? '';
  const gatewayNo = params.trade_no ?? '';
  if (!tradeNo || !gatewayNo) return reject('no out_trade_no or trade_no');
  const amount = params.total_amount ?? '';
  if (!AMOUNT.test(amount)) return reject(`total_amount ${amount || '(none)'} is not an amount in yuan`);
  // Cross-border merchants are told the currency the payer was charged in; domestic ones are in CNY.
  const currency = params.trans_currency || 'CNY';
  if (currency !== 'CNY' && currency !== 'USD') return reject(`trans_currency ${currency} is not CNY or USD`);
  return { kind: 'paid', tradeNo, gatewayNo, paidCents: centsOf(amount), currency };
}

export function readAlipayCallback(stored: unknown, callback: GatewayCallback): GatewayCallbackResult {
  const read = readConfig(stored);
  if (typeof read === 'string') return reject(read);
  const params = readParams(callback);
  if (typeof params === 'string') return reject(params);
  const sign = params.sign ?? '';
  if (!sign) return reject('no sign parameter');
  if (params.sign_type !== 'RSA2') return reject(`sign_type ${params.sign_type ?? '(none)'} is not RSA2`);
  const content = signingContent(params, ['sign', 'sign_type']);
  if (!rsa2Verifies(Buffer.from(content, 'utf8'), sign, read.keys.alipayPublicKey)) {
    return reject('sign does not verify with the Alipay public key');
  }
  if (params.app_id !== read.config.app_id)
    return reject(`app_id ${params.app_id ?? '(none)'} is not this application`);
  return readSigned(params);
}
