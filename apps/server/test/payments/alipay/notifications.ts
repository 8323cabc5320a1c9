import type { KeyObject } from 'node:crypto';
import { request } from 'undici';
import type { PageOrder } from './pages.js';
import { beijingTime, randomDigits, type SimulatorKeys, signNotification } from './vendor.js';

/** Alipay's asynchronous notification (异步通知) as the simulator builds and sends it. */

export interface SimulatedOrder extends PageOrder {
  notifyUrl: string;
  tradeNo: string;
}

export interface NotifyOptions {
  trade_status?: string;
  total_amount?: string;
  app_id?: string;
  /** Sign with this key instead of Alipay's (a forgery). */
  signingKey?: KeyObject;
  /** Parameters added (or, with '', removed) before signing. */
  extra?: Record<string, string>;
  /** Alters the form after it was signed (tampering in transit). */
  tamper?: (body: string) => string;
  /** Alipay posts a form; some set-ups receive the same parameters as a GET query. */
  httpMethod?: 'POST' | 'GET';
  /** Deliver to this URL instead of the order's notify URL (e.g. another gateway's). */
  url?: string;
}

export interface Delivery {
  httpMethod: 'POST' | 'GET';
  url: string;
  body: string;
  status: number;
  answer: string;
}

/** A notification's parameters as Alipay sends them for a paid trade, signed. */
export function notificationParams(
  order: SimulatedOrder,
  keys: SimulatorKeys,
  options: NotifyOptions,
): Record<string, string> {
  const amount = options.total_amount ?? order.totalAmount;
  const params: Record<string, string> = {
    gmt_create: beijingTime(),
    charset: 'utf-8',
    gmt_payment: beijingTime(),
    notify_time: beijingTime(),
    subject: order.subject,
    buyer_id: `2088${randomDigits(12)}`,
    invoice_amount: amount,
    version: '1.0',
    notify_id: `2026${randomDigits(30)}`,
    fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
    notify_type: 'trade_status_sync',
    out_trade_no: order.outTradeNo,
    total_amount: amount,
    trade_status: options.trade_status ?? 'TRADE_SUCCESS',
    trade_no: order.tradeNo,
    auth_app_id: keys.appId,
    receipt_amount: amount,
    point_amount: '0.00',
    app_id: options.app_id ?? keys.appId,
    buyer_pay_amount: amount,
    seller_id: keys.sellerId,
    sign_type: 'RSA2',
  };
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (value === '') delete params[name];
    else params[name] = value;
  }
  return signNotification(params, options.signingKey ?? keys.alipayPrivateKey);
}

/** Posts a notification form to the notify URL (or puts it on the query) and reads the merchant's answer. */
export async function deliver(httpMethod: 'POST' | 'GET', url: string, body: string): Promise<Delivery> {
  const target = httpMethod === 'GET' ? `${url}${url.includes('?') ? '&' : '?'}${body}` : url;
  const response =
    httpMethod === 'GET'
      ? await request(target, { method: 'GET' })
      : await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body,
        });
  return { httpMethod, url, body, status: response.statusCode, answer: await response.body.text() };
}
