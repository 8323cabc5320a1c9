import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Delivery,
  deliver,
  type NotifyOptions,
  notificationParams,
  type SimulatedOrder,
} from './notifications.js';
import { errorPage, payPage, resultPage } from './pages.js';
import { type Business, businessProblem, commonProblem, type Refusal } from './requests.js';
import {
  answerBody,
  beijingTime,
  createKeys,
  type KeyFormat,
  privateKeyText,
  publicKeyText,
  randomDigits,
  rsaPair,
} from './vendor.js';

export type { Delivery, NotifyOptions, SimulatedOrder } from './notifications.js';

/**
 * A local stand-in for Alipay's open-platform gateway (`gateway.do`). `alipay.trade.precreate`
 * (form POST) is checked as Alipay checks it and answered with a signed JSON whose `qr_code` is
 * this server's own pay page; `alipay.trade.page.pay` and `alipay.trade.wap.pay` (browser GET) are
 * checked the same way and show the pay page. Its "Pay" button, or the `send…` methods, post the
 * signed asynchronous notification to the order's `notify_url`.
 */

export interface ReceivedCall {
  httpMethod: string;
  params: Record<string, string>;
  /** Alipay's refusal of the call, undefined when it was accepted. */
  refusal?: Refusal;
}

/** How the next precreate answers are bent. */
export type AnswerBehaviour = 'genuine' | 'forged' | 'unsigned' | 'other-order';

function readParams(incoming: IncomingMessage, url: URL): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.once('error', reject);
    incoming.once('end', () => {
      // Alipay reads the common parameters from the query or the form alike.
      const form = new URLSearchParams(Buffer.concat(parts).toString('utf8'));
      resolve({ ...Object.fromEntries(url.searchParams), ...Object.fromEntries(form) });
    });
  });
}

export async function startAlipaySimulator() {
  const keys = createKeys();
  const stranger = rsaPair().privateKey;
  const orders = new Map<string, SimulatedOrder>();
  const received: ReceivedCall[] = [];
  const deliveries: Delivery[] = [];
  const state = { behaviour: 'genuine' as AnswerBehaviour };
  let base = '';

  /** Checks a call; records it; answers the order it opens, or Alipay's refusal. */
  function accept(httpMethod: string, params: Record<string, string>): Refusal | SimulatedOrder {
    const refusal = commonProblem(params, keys.appId, keys.merchantPublicKey) ?? problemOrOrder(params);
    const call: ReceivedCall = { httpMethod, params };
    if (!('token' in refusal)) call.refusal = refusal;
    received.push(call);
    return refusal;
  }

  function problemOrOrder(params: Record<string, string>): Refusal | SimulatedOrder {
    const fields = businessProblem(params);
    if ('code' in fields) return fields;
    const existing = orders.get(fields.out_trade_no);
    if (existing && existing.totalAmount !== fields.total_amount) {
      return { code: '40004', subCode: 'ACQ.CONTEXT_INCONSISTENT', subMsg: '交易信息被篡改' };
    }
    const order = existing ?? newOrder(fields, params);
    orders.set(order.outTradeNo, order);
    return order;
  }

  function newOrder(fields: Business, params: Record<string, string>): SimulatedOrder {
    return {
      outTradeNo: fields.out_trade_no,
      subject: fields.subject,
      totalAmount: fields.total_amount,
      token: randomBytes(12).toString('hex'),
      returnUrl: params.return_url ?? '',
      notifyUrl: params.notify_url ?? '',
      tradeNo: `${beijingTime().slice(0, 10).replace(/-/g, '')}22001${randomDigits(19)}`,
    };
  }

  function precreateAnswer(outcome: Refusal | SimulatedOrder): string {
    const method = 'alipay.trade.precreate';
    if ('code' in outcome) {
      const fields = {
        code: outcome.code,
        msg: outcome.code === '40002' ? 'Invalid Arguments' : 'Business Failed',
        sub_code: outcome.subCode,
        sub_msg: outcome.subMsg,
      };
      // A call whose signature did not verify is answered unsigned; a business refusal is signed.
      return answerBody(method, fields, outcome.code === '40002' ? undefined : keys.alipayPrivateKey);
    }
    const fields = {
      code: '10000',
      msg: 'Success',
      out_trade_no: state.behaviour === 'other-order' ? `${outcome.outTradeNo}9` : outcome.outTradeNo,
      qr_code: `${base}/qr/${outcome.token}`,
    };
    const signer = {
      genuine: keys.alipayPrivateKey,
      'other-order': keys.alipayPrivateKey,
      forged: stranger,
      unsigned: undefined,
    }[state.behaviour];
    return answerBody(method, fields, signer);
  }

  async function send(outTradeNo: string, options: NotifyOptions = {}): Promise<Delivery> {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`the simulator has no order ${outTradeNo}`);
    const body = new URLSearchParams(notificationParams(order, keys, options)).toString();
    return record(
      deliver(
        options.httpMethod ?? 'POST',
        options.url ?? order.notifyUrl,
        options.tamper ? options.tamper(body) : body,
      ),
    );
  }

  async function record(sending: Promise<Delivery>): Promise<Delivery> {
    const delivery = await sending;
    deliveries.push(delivery);
    return delivery;
  }

  function html(response: ServerResponse, status: number, body: string): void {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  }

  async function route(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? '/', 'http://simulator');
    const params = await readParams(incoming, url);
    const token = /^\/(?:qr|pay)\/([0-9a-f]+)$/.exec(url.pathname)?.[1];
    const order = token ? [...orders.values()].find((candidate) => candidate.token === token) : undefined;
    if (url.pathname === '/gateway.do' && incoming.method === 'POST' && params.method === 'alipay.trade.precreate') {
      response.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
      return void response.end(precreateAnswer(accept('POST', params)));
    }
    if (url.pathname === '/gateway.do' && incoming.method === 'GET') {
      const outcome = params.method === 'alipay.trade.precreate' ? undefined : accept('GET', params);
      if (!outcome || 'code' in outcome)
        return html(
          response,
          400,
          errorPage(outcome?.subCode ?? 'isv.invalid-method', outcome?.subMsg ?? '不存在的方法名'),
        );
      return html(response, 200, payPage(outcome));
    }
    if (!order) return html(response, 404, errorPage('NOT_FOUND', `no route ${url.pathname}`));
    if (incoming.method !== 'POST') return html(response, 200, payPage(order));
    const delivery = await send(order.outTradeNo).catch((error: Error) => ({ status: 0, answer: error.message }));
    html(response, 200, resultPage(order, delivery.status, delivery.answer));
  }

  const server = createServer((incoming, response) => {
    route(incoming, response).catch((error: Error) => {
      if (!response.headersSent) html(response, 500, errorPage('SYSTEM_ERROR', error.message));
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** Base URL of the simulator; the gateway's `alipayGateway` is `gatewayUrl`. */
    url: base,
    gatewayUrl: `${base}/gateway.do`,
    keys,
    received,
    deliveries,
    orders,
    get behaviour(): AnswerBehaviour {
      return state.behaviour;
    },
    set behaviour(value: AnswerBehaviour) {
      state.behaviour = value;
    },
    /** The config an administrator would save (JSON.stringify it for the API). */
    config(
      options: { payType?: string; keyFormat?: KeyFormat; publicKeyFormat?: 'bare' | 'pem' } = {},
    ): Record<string, string> {
      return {
        app_id: keys.appId,
        private_key: privateKeyText(keys.merchantPrivateKey, options.keyFormat ?? 'bare-pkcs1'),
        public_key: publicKeyText(keys.alipayPublicKey, options.publicKeyFormat ?? 'bare'),
        pay_type: options.payType ?? 'facepay',
      };
    },
    /** A genuine notification that the order was paid in full. */
    sendPaid: (outTradeNo: string, options: NotifyOptions = {}) => send(outTradeNo, options),
    /** Signed with a key that is not Alipay's, everything else genuine. */
    sendForged: (outTradeNo: string, options: NotifyOptions = {}) =>
      send(outTradeNo, { ...options, signingKey: stranger }),
    /** Genuine, but saying less was paid than the order asked (one fen less by default). */
    sendUnderpaid(outTradeNo: string, totalAmount?: string) {
      const [yuan = '0', fen = ''] = (orders.get(outTradeNo)?.totalAmount ?? '0').split('.');
      const less = Number(yuan) * 100 + Number(fen.padEnd(2, '0')) - 1;
      return send(outTradeNo, {
        total_amount: totalAmount ?? `${Math.floor(less / 100)}.${String(less % 100).padStart(2, '0')}`,
      });
    },
    /** Alipay's re-sending of a notification it got no `success` for: the same parameters again. */
    sendDuplicate: (delivery: Delivery, url: string = delivery.url) =>
      record(deliver(delivery.httpMethod, url, delivery.body)),
    reset() {
      state.behaviour = 'genuine';
      received.length = 0;
      deliveries.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type AlipaySimulator = Awaited<ReturnType<typeof startAlipaySimulator>>;
