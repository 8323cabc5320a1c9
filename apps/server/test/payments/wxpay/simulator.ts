import { type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createKeys, digits, gatewayConfig, prepayProblem, rsaPair, type SimulatorKeys } from './account.js';
import { payPage, resultPage } from './pages.js';
import {
  type AuthorizationCheck,
  checkAuthorization,
  type NotificationOptions,
  notificationBody,
  wechatpayHeaders,
} from './vendor.js';

export type { SimulatorKeys } from './account.js';

/**
 * A local stand-in for WeChat Pay APIv3 (Native): `POST /v3/pay/transactions/native` checks the
 * merchant's signature and fields as WeChat Pay does and answers a signed `code_url`, which here
 * is this server's own pay page; its "Pay" button, or the `send…` methods, post the signed and
 * encrypted notification to the order's `notify_url`.
 */

export interface SimulatedOrder {
  outTradeNo: string;
  description: string;
  notifyUrl: string;
  /** Fen. */
  total: number;
  transactionId: string;
  /** The pay page's path segment: the QR code's URL is `<url>/pay/<token>`. */
  token: string;
}

export interface ReceivedPrepay {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  authorization: AuthorizationCheck;
}

/** How the next prepay answers are bent: a forged or unsigned answer, or a refusal. */
export interface SimulatorBehaviour {
  answer: 'genuine' | 'forged' | 'unsigned' | 'wrong-serial';
  refuse?: { status: number; code: string; message: string };
}

/** A notification sent, and what the merchant answered. */
export interface Delivery {
  headers: Record<string, string>;
  body: string;
  status: number;
  answer: string;
}

export interface SendOptions extends NotificationOptions {
  /** Seconds since 1970 to sign with (an expired or future callback). */
  timestamp?: number;
  /** Sign with a key WeChat Pay does not own (a forgery). */
  signingKey?: KeyObject;
  serial?: string;
  apiV3Key?: string;
  /** Alters the body after it was signed (tampering in transit). */
  tamper?: (body: string) => string;
  /** Delivers somewhere else than the order's `notify_url` (another gateway's). */
  url?: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function readRequest(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.once('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    incoming.once('error', reject);
  });
}

export class WxpaySimulator {
  /** The gateway's `wxpayApiBase`, set once listening. */
  url = '';
  readonly keys: SimulatorKeys = createKeys();
  readonly orders = new Map<string, SimulatedOrder>();
  readonly received: ReceivedPrepay[] = [];
  readonly deliveries: Delivery[] = [];
  behaviour: SimulatorBehaviour = { answer: 'genuine' };
  private stranger: KeyObject | undefined;
  private readonly server = createServer((incoming, response) => {
    this.route(incoming, response).catch((error: Error) => {
      if (!response.headersSent) this.answer(response, 500, { code: 'SYSTEM_ERROR', message: error.message });
      else response.end();
    });
  });

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.behaviour = { answer: 'genuine' };
    this.received.length = 0;
    this.deliveries.length = 0;
  }

  /** The gateway config an administrator would save for this merchant (JSON.stringify it for the API). */
  config(overrides: Record<string, string> = {}): Record<string, string> {
    return gatewayConfig(this.keys, overrides);
  }

  /** A genuine notification that the order was paid (in full unless `options.total` says otherwise). */
  async sendPaid(outTradeNo: string, options: SendOptions = {}): Promise<Delivery> {
    const order = this.orders.get(outTradeNo);
    if (!order) throw new Error(`the simulator has no order ${outTradeNo}`);
    const { keys } = this;
    const paid = {
      appid: keys.appId,
      mchid: keys.mchId,
      outTradeNo,
      transactionId: order.transactionId,
      total: order.total,
    };
    const body = notificationBody(paid, options.apiV3Key ?? keys.apiV3Key, options);
    const headers = wechatpayHeaders(
      body,
      options.signingKey ?? keys.wechatpayPrivateKey,
      options.serial ?? keys.wechatpayPublicKeyId,
      options.timestamp ?? nowSeconds(),
    );
    return this.deliver(options.url ?? order.notifyUrl, headers, options.tamper ? options.tamper(body) : body);
  }

  /** Signed with a key that is not WeChat Pay's, everything else genuine. */
  sendForged(outTradeNo: string, options: SendOptions = {}): Promise<Delivery> {
    return this.sendPaid(outTradeNo, { ...options, signingKey: this.strangerKey() });
  }

  /** Genuine, but saying less was paid than the order asked (1 fen less by default). */
  sendUnderpaid(outTradeNo: string, total?: number): Promise<Delivery> {
    return this.sendPaid(outTradeNo, { total: total ?? (this.orders.get(outTradeNo)?.total ?? 1) - 1 });
  }

  /** WeChat Pay's retry of a notification: the same body, freshly timestamped and signed. */
  sendDuplicate(delivery: Delivery, url: string): Promise<Delivery> {
    const headers = wechatpayHeaders(
      delivery.body,
      this.keys.wechatpayPrivateKey,
      this.keys.wechatpayPublicKeyId,
      nowSeconds(),
    );
    return this.deliver(url, headers, delivery.body);
  }

  /** An attacker's replay: the captured bytes and headers as they were. */
  replay(delivery: Delivery, url: string): Promise<Delivery> {
    return this.deliver(url, delivery.headers, delivery.body);
  }

  private async deliver(url: string, headers: Record<string, string>, body: string): Promise<Delivery> {
    const sent = { ...headers, 'content-type': 'application/json' };
    const response = await request(url, { method: 'POST', headers: sent, body });
    const delivery = { headers: sent, body, status: response.statusCode, answer: await response.body.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** A key WeChat Pay does not own, made on first use: generating RSA keys is slow. */
  private strangerKey(): KeyObject {
    this.stranger = this.stranger ?? rsaPair().privateKey;
    return this.stranger;
  }

  private async route(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://simulator');
    const pay = /^\/pay\/([0-9a-f]+)$/.exec(url.pathname);
    if (incoming.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
      return this.prepay(incoming, response, `${url.pathname}${url.search}`);
    }
    if (pay?.[1]) return this.payPage(incoming, response, pay[1]);
    this.answer(response, 404, { code: 'NOT_FOUND', message: `no route ${url.pathname}` });
  }

  /** Answers as WeChat Pay does: JSON signed with its key (unless the behaviour bends it). */
  private answer(response: ServerResponse, status: number, value: unknown): void {
    const body = JSON.stringify(value);
    const { answer } = this.behaviour;
    const signer = answer === 'forged' ? this.strangerKey() : this.keys.wechatpayPrivateKey;
    const serial =
      answer === 'wrong-serial' ? 'PUB_KEY_ID_0000000000000000000000000000' : this.keys.wechatpayPublicKeyId;
    const signed = answer === 'unsigned' ? {} : wechatpayHeaders(body, signer, serial, nowSeconds());
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': randomBytes(8).toString('hex'),
      ...signed,
    });
    response.end(body);
  }

  private async prepay(incoming: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const body = await readRequest(incoming);
    const { keys } = this;
    const merchant = { mchId: keys.mchId, serialNo: keys.merchantSerial, publicKey: keys.merchantPublicKey };
    const authorization = checkAuthorization(
      incoming.headers.authorization,
      { method: 'POST', pathWithQuery: path, body },
      merchant,
      nowSeconds(),
    );
    this.received.push({ path, headers: incoming.headers, body, authorization });
    if (!authorization.ok) return this.answer(response, 401, { code: 'SIGN_ERROR', message: authorization.problem });
    const refuse = this.behaviour.refuse;
    if (refuse) return this.answer(response, refuse.status, { code: refuse.code, message: refuse.message });
    const prepay = prepayProblem(body, keys);
    if (typeof prepay === 'string') return this.answer(response, 400, { code: 'PARAM_ERROR', message: prepay });
    const existing = this.orders.get(prepay.out_trade_no);
    if (existing && existing.total !== prepay.amount.total) {
      return this.answer(response, 400, {
        code: 'INVALID_REQUEST',
        message: 'out_trade_no was used with other parameters',
      });
    }
    // WeChat Pay answers a repeated prepay for the same order with the same code_url.
    const order = existing ?? {
      outTradeNo: prepay.out_trade_no,
      description: prepay.description,
      notifyUrl: prepay.notify_url,
      total: prepay.amount.total,
      transactionId: `4200${digits(24)}`,
      token: randomBytes(12).toString('hex'),
    };
    this.orders.set(order.outTradeNo, order);
    this.answer(response, 200, { code_url: `${this.url}/pay/${order.token}` });
  }

  /** GET shows the order and a Pay button; POST (the button) sends the paid notification and shows the merchant's answer. */
  private async payPage(incoming: IncomingMessage, response: ServerResponse, token: string): Promise<void> {
    const order = [...this.orders.values()].find((candidate) => candidate.token === token);
    if (incoming.method === 'POST') await readRequest(incoming);
    let html: string;
    if (!order) html = '<!doctype html><title>WeChat Pay</title><p>Unknown payment code</p>';
    else if (incoming.method !== 'POST') html = payPage(order);
    else {
      const delivery = await this.sendPaid(order.outTradeNo).catch((error: Error) => ({
        status: 0,
        answer: error.message,
      }));
      html = resultPage(order, delivery.status, delivery.answer);
    }
    response.writeHead(order ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  }
}

/** Starts a simulator on a loopback port: its `url` is the gateway's `wxpayApiBase`. */
export async function startWxpaySimulator(): Promise<WxpaySimulator> {
  const simulator = new WxpaySimulator();
  await simulator.listen();
  return simulator;
}
