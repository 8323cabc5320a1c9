import { ORDER_PENDING_LIFETIME_SECONDS, PaymentAction } from '@one-hub/contracts';
import { request } from 'undici';
import type { z } from 'zod';
import { readBody } from '../../platform/read-body.js';
import type { GatewayAnswer, GatewayEndpoints, GatewayOrder, PaymentGateway } from '../gateway.js';
import { readWxpayCallback } from './callback.js';
import { readKeys, type WxpayConfig, wxpayConfig } from './config.js';
import { authorizationHeader, signatureProblem } from './sign.js';

export type { WxpayConfig } from './config.js';

const NATIVE_PATH = '/v3/pay/transactions/native';
const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 64 * 1024;
/** WeChat Pay's limit for `description`, in bytes of UTF-8. */
const DESCRIPTION_MAX_BYTES = 127;
/** End the QR code's life before the order service closes the pending order, so nobody pays for a closed order. */
const PAYABLE_SECONDS = ORDER_PENDING_LIFETIME_SECONDS - 10 * 60;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** `subject` cut at a character boundary so that its UTF-8 fits WeChat Pay's 127 bytes. */
function description(subject: string): string {
  let text = '';
  for (const character of subject) {
    if (Buffer.byteLength(text + character, 'utf8') > DESCRIPTION_MAX_BYTES) break;
    text += character;
  }
  return text;
}

/** RFC 3339 in UTC without milliseconds, the form WeChat Pay documents for `time_expire`. */
const rfc3339 = (seconds: number): string => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

function prepayBody(config: WxpayConfig, order: GatewayOrder): string {
  return JSON.stringify({
    appid: config.app_id,
    mchid: config.mch_id,
    description: description(order.subject),
    out_trade_no: order.tradeNo,
    time_expire: rfc3339(nowSeconds() + PAYABLE_SECONDS),
    notify_url: order.notifyUrl,
    amount: { total: order.amountCents, currency: 'CNY' },
  });
}

interface VendorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<VendorAnswer> {
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: await readBody(response.body, MAX_ANSWER_BYTES),
    };
  } catch (error) {
    throw new Error(`WeChat Pay could not be reached (${(error as { code?: string }).code ?? 'network error'})`);
  }
}

/** WeChat Pay's error answer names a code and a message (`{"code":"PARAM_ERROR","message":"…"}`). */
function refusal(answer: VendorAnswer): Error {
  let detail = `HTTP ${answer.status}`;
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'string') detail = `${parsed.code}: ${String(parsed.message ?? '')}`.slice(0, 300);
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const hint = answer.status === 401 ? ' (check mch_id, mch_certificate_serial_number and mch_private_key)' : '';
  return new Error(`WeChat Pay refused the order: ${detail}${hint}`);
}

/**
 * WeChat Pay APIv3, Native: the server asks WeChat Pay for a `code_url`, the console shows it as a
 * QR code, and WeChat Pay posts a signed, encrypted notification when the payer has paid. Every
 * request is signed with the merchant key and every answer checked with WeChat Pay's public key.
 */
export function createWxpayGateway(endpoints: Pick<GatewayEndpoints, 'wxpayApiBase'>): PaymentGateway<WxpayConfig> {
  return {
    type: 'wxpay',
    configSchema: wxpayConfig as unknown as z.ZodType<WxpayConfig>,
    secretFields: ['mch_apiv3_key', 'mch_private_key'],

    async pay(stored, order) {
      if (order.currency !== 'CNY')
        throw new Error(`WeChat Pay charges in CNY only: set this gateway's currency to CNY (not ${order.currency})`);
      const { config, keys } = readKeys(stored);
      const url = `${endpoints.wxpayApiBase.replace(/\/+$/, '')}${NATIVE_PATH}`;
      const body = prepayBody(config, order);
      const { pathname, search } = new URL(url);
      const authorization = authorizationHeader(
        keys.merchant,
        { method: 'POST', pathWithQuery: `${pathname}${search}`, body },
        nowSeconds(),
      );
      const headers = {
        authorization,
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'one-hub',
      };
      const answer = await post(url, headers, body);
      if (answer.status < 200 || answer.status >= 300) throw refusal(answer);
      // A success without a valid signature is to be treated as forged (WeChat Pay "签名验证").
      const problem = signatureProblem(answer.headers, answer.body, keys.platform, nowSeconds());
      if (problem)
        throw new Error(`WeChat Pay's answer failed verification: ${problem} (check wechatpay_public_key and its id)`);
      let codeUrl: unknown;
      try {
        codeUrl = (JSON.parse(answer.body.toString('utf8')) as { code_url?: unknown }).code_url;
      } catch {
        codeUrl = undefined;
      }
      if (typeof codeUrl !== 'string' || !codeUrl) throw new Error('WeChat Pay answered without a code_url');
      return { type: PaymentAction.showQrCode, url: codeUrl };
    },

    async verify(stored, callback) {
      return readWxpayCallback(stored, callback, nowSeconds());
    },

    answer(outcome): GatewayAnswer {
      // APIv3: 200/204 acknowledges; a 4XX/5XX with {"code":"FAIL","message":…} makes WeChat Pay retry.
      if (outcome === 'ok') return { status: 204, contentType: 'text/plain; charset=utf-8', body: '' };
      return {
        status: 400,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ code: 'FAIL', message: 'the notification was refused' }),
      };
    },
  };
}
