import { ORDER_PENDING_LIFETIME_SECONDS, PaymentAction } from '@one-hub/contracts';
import { request } from 'undici';
import type { z } from 'zod';
import { readBody } from '../../platform/read-body.js';
import type { GatewayAnswer, GatewayEndpoints, GatewayOrder, GatewayPayment, PaymentGateway } from '../gateway.js';
import { centsText } from '../money.js';
import { readAlipayCallback } from './callback.js';
import { type AlipayConfig, type AlipayKeys, type AlipayPayType, alipayConfig, readConfig } from './config.js';
import { readAnswer } from './response.js';
import { signRequest } from './sign.js';

export type { AlipayConfig } from './config.js';

const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 64 * 1024;
/** Alipay's limits: subject at most 256 characters, total_amount from 0.01 to 100000000 yuan. */
const SUBJECT_MAX = 256;
const MAX_CENTS = 100_000_000 * 100;
/** Alipay closes the trade before the order service closes the order, so nobody pays for a closed order. */
const PAYABLE_MINUTES = Math.floor(ORDER_PENDING_LIFETIME_SECONDS / 60) - 10;
/** Alipay reads `timestamp` in Beijing time (UTC+8, no daylight saving). */
const BEIJING_OFFSET_MS = 8 * 60 * 60 * 1000;

const METHODS: Record<AlipayPayType, { method: string; productCode?: string }> = {
  facepay: { method: 'alipay.trade.precreate' },
  pagepay: { method: 'alipay.trade.page.pay', productCode: 'FAST_INSTANT_TRADE_PAY' },
  wappay: { method: 'alipay.trade.wap.pay', productCode: 'QUICK_WAP_WAY' },
};

/** `yyyy-MM-dd HH:mm:ss` in Beijing time. */
function beijingTimestamp(now: number): string {
  return new Date(now + BEIJING_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The signed parameters of one call: the common ones, and the business ones as `biz_content` JSON. */
function signedParams(config: AlipayConfig, keys: AlipayKeys, order: GatewayOrder): Record<string, string> {
  const { method, productCode } = METHODS[config.pay_type];
  const business: Record<string, string> = {
    out_trade_no: order.tradeNo,
    total_amount: centsText(order.amountCents),
    subject: [...order.subject].slice(0, SUBJECT_MAX).join(''),
    timeout_express: `${PAYABLE_MINUTES}m`,
  };
  if (productCode) business.product_code = productCode;
  if (config.pay_type === 'wappay') business.quit_url = order.returnUrl;
  const params: Record<string, string> = {
    app_id: config.app_id,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: beijingTimestamp(Date.now()),
    version: '1.0',
    notify_url: order.notifyUrl,
    biz_content: JSON.stringify(business),
  };
  // Only the cashier pages bring the payer's browser back; a QR code is paid on the phone.
  if (config.pay_type !== 'facepay') params.return_url = order.returnUrl;
  return signRequest(params, keys.privateKey);
}

async function postForm(url: string, params: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: new URLSearchParams(params).toString(),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    return { status: response.statusCode, body: await readBody(response.body, MAX_ANSWER_BYTES) };
  } catch (error) {
    throw new Error(`Alipay could not be reached (${(error as { code?: string }).code ?? 'network error'})`);
  }
}

/** Alipay's refusal (`code` other than 10000) as a sentence, with a hint for the set-up mistakes. */
function refusal(fields: Record<string, unknown>): Error {
  const detail = [fields.code, fields.msg, fields.sub_code, fields.sub_msg]
    .filter((part) => typeof part === 'string' && part)
    .join(' ');
  const subCode = String(fields.sub_code ?? '');
  const hint = subCode.includes('invalid-signature')
    ? ' (check private_key, and that its public key is the one uploaded for this app_id)'
    : subCode.includes('invalid-app-id')
      ? ' (check app_id, and that the application is online)'
      : '';
  return new Error(`Alipay refused the order: ${detail.slice(0, 300) || 'no reason given'}${hint}`);
}

/** Face-to-face: Alipay answers a `qr_code` the payer scans with the Alipay app. */
async function precreate(
  gatewayUrl: string,
  params: Record<string, string>,
  keys: AlipayKeys,
  tradeNo: string,
): Promise<GatewayPayment> {
  const answer = await postForm(gatewayUrl, params);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`Alipay answered HTTP ${answer.status}`);
  const { fields, signature } = readAnswer(answer.body, params.method ?? '', keys.alipayPublicKey);
  if (signature === 'forged') {
    throw new Error("Alipay's answer failed verification (check public_key is the Alipay public key of this app_id)");
  }
  if (fields.code !== '10000') throw refusal(fields);
  // A success is trusted only when signed: its qr_code is where the payer's money goes.
  if (signature !== 'signed') throw new Error("Alipay's answer was not signed");
  if (fields.out_trade_no !== tradeNo)
    throw new Error(`Alipay's answer is about another order (${String(fields.out_trade_no)})`);
  if (typeof fields.qr_code !== 'string' || !fields.qr_code) throw new Error('Alipay answered without a qr_code');
  return { type: PaymentAction.showQrCode, url: fields.qr_code };
}

/**
 * Alipay (open platform, RSA2, public-key mode): face-to-face QR, desktop page pay or mobile WAP
 * pay. Requests are signed with the application private key; answers and notifications are
 * verified with Alipay's public key. Alipay charges in CNY only.
 */
export function createAlipayGateway(endpoints: Pick<GatewayEndpoints, 'alipayGateway'>): PaymentGateway<AlipayConfig> {
  return {
    type: 'alipay',
    configSchema: alipayConfig as unknown as z.ZodType<AlipayConfig>,
    secretFields: ['private_key'],

    async pay(stored, order) {
      // The gateway's currency is a column, not part of config, so it can only be refused here.
      if (order.currency !== 'CNY')
        throw new Error(`Alipay charges in CNY only: set this gateway's currency to CNY (not ${order.currency})`);
      if (!Number.isInteger(order.amountCents) || order.amountCents < 1 || order.amountCents > MAX_CENTS) {
        throw new Error('Alipay takes amounts from 0.01 to 100000000 yuan');
      }
      const read = readConfig(stored);
      if (typeof read === 'string') throw new Error(read);
      const params = signedParams(read.config, read.keys, order);
      if (read.config.pay_type === 'facepay')
        return precreate(endpoints.alipayGateway, params, read.keys, order.tradeNo);
      // The cashier pages are opened by the payer's browser with the signed call in the query.
      const url = new URL(endpoints.alipayGateway);
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return { type: PaymentAction.openUrl, url: url.toString(), method: 'GET' };
    },

    async verify(stored, callback) {
      try {
        return readAlipayCallback(stored, callback);
      } catch {
        // Nothing in a callback may turn into a 500: whatever could not be read is refused.
        return { kind: 'rejected', reason: 'the notification could not be read' };
      }
    },

    answer(outcome): GatewayAnswer {
      // Alipay stops re-sending only when the body is exactly `success`.
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: outcome === 'ok' ? 'success' : 'failure' };
    },
  };
}
