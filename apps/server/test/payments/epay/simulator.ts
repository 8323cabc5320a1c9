import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Epay (易支付) server for tests and the browser e2e. It speaks Epay's documented wire
 * format in both directions: it checks the MD5 signature of the form posted to `/submit.php`,
 * shows a cashier page with a Pay button, and on pay calls the merchant's `notify_url` with a
 * query signed the way Epay signs it. Its signing is written here from the rule, not imported from
 * the gateway, so a mistake in the gateway's signing fails the tests instead of agreeing with itself.
 */

export interface EpaySubmission {
  params: Record<string, string>;
  signatureValid: boolean;
}

export interface EpayCallbackOverrides {
  money?: string;
  trade_status?: string;
  /** Sign with this key instead of the merchant's (a forgery). */
  key?: string;
  /** Send this `sign` as it is. */
  sign?: string;
  /** The vendor's own trade number (Epay's `trade_no`); fixed per order by default. */
  trade_no?: string;
  pid?: string;
  /** Deliver to this URL instead of the order's notify_url (a callback sent to the wrong gateway). */
  notifyUrl?: string;
}

export interface EpaySimulator {
  url: string;
  partnerId: string;
  key: string;
  /** Every form posted to /submit.php, in order. */
  submissions: EpaySubmission[];
  /** Calls the order's notify_url as Epay does after a payment; answers Epay's view of the reply. */
  notify(tradeNo: string, overrides?: EpayCallbackOverrides): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** Epay's rule: sorted non-empty params except sign/sign_type, `k=v&…`, the key appended, MD5 lower hex. */
export function epaySignature(params: Record<string, string>, key: string): string {
  const pairs = Object.entries(params)
    .filter(([name, value]) => value !== '' && name !== 'sign' && name !== 'sign_type')
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`);
  return createHash('md5')
    .update(pairs.join('&') + key)
    .digest('hex');
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function html(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>Epay</title></head><body>${body}</body></html>`,
  );
}

export async function startEpaySimulator(options: { partnerId?: string; key?: string } = {}): Promise<EpaySimulator> {
  const partnerId = options.partnerId ?? '1001';
  const key = options.key ?? 'epay-merchant-key-0123456789';
  const submissions: EpaySubmission[] = [];
  const orders = new Map<string, Record<string, string>>();

  async function notify(tradeNo: string, overrides: EpayCallbackOverrides = {}) {
    const order = orders.get(tradeNo);
    if (!order?.notify_url) throw new Error(`the simulator has no order ${tradeNo}`);
    const params: Record<string, string> = {
      pid: overrides.pid ?? partnerId,
      trade_no: overrides.trade_no ?? `EP${tradeNo}`,
      out_trade_no: tradeNo,
      type: order.type || 'alipay',
      name: order.name ?? tradeNo,
      money: overrides.money ?? order.money ?? '0.00',
      trade_status: overrides.trade_status ?? 'TRADE_SUCCESS',
    };
    params.sign = overrides.sign ?? epaySignature(params, overrides.key ?? key);
    params.sign_type = 'MD5';
    const target = new URL(overrides.notifyUrl ?? order.notify_url);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    const response = await fetch(target);
    return { status: response.status, body: await response.text() };
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://simulator').pathname;
    if (request.method === 'POST' && path === '/submit.php') {
      const params = await readForm(request);
      const signatureValid = params.pid === partnerId && params.sign === epaySignature(params, key);
      submissions.push({ params, signatureValid });
      if (!signatureValid) return html(response, 400, '<p id="error">签名校验失败 (sign error)</p>');
      orders.set(params.out_trade_no ?? '', params);
      const tradeNo = escapeHtml(params.out_trade_no ?? '');
      return html(
        response,
        200,
        `<h1>Epay cashier</h1><p>Order <span id="trade-no">${tradeNo}</span>: <span id="money">${escapeHtml(params.money ?? '')}</span></p>` +
          `<form method="post" action="/pay"><input type="hidden" name="out_trade_no" value="${tradeNo}"><button id="pay" type="submit">Pay</button></form>`,
      );
    }
    if (request.method === 'POST' && path === '/pay') {
      const { out_trade_no: tradeNo = '' } = await readForm(request);
      const answer = await notify(tradeNo);
      const back = orders.get(tradeNo)?.return_url ?? '';
      return html(
        response,
        200,
        `<p id="paid">Paid. The merchant answered: <span id="merchant-answer">${escapeHtml(answer.body)}</span></p>` +
          (back ? `<a id="return" href="${escapeHtml(back)}">Back to the merchant</a>` : ''),
      );
    }
    html(response, 404, '<p>not found</p>');
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) html(response, 500, `<p id="error">${escapeHtml(String(error))}</p>`);
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    partnerId,
    key,
    submissions,
    notify,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
