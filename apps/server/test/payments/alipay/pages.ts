/** The simulator's stand-ins for Alipay's cashier and the phone's "pay" screen (used by the e2e tests). */

export interface PageOrder {
  outTradeNo: string;
  subject: string;
  totalAmount: string;
  token: string;
  returnUrl: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Alipay (simulated)</title></head><body>${body}</body></html>`;

export function payPage(order: PageOrder): string {
  return page(
    `<h1>支付宝 Alipay</h1><p id="subject">${escapeHtml(order.subject)}</p>` +
      `<p>Order <span id="trade-no">${escapeHtml(order.outTradeNo)}</span>: ¥<span id="amount">${escapeHtml(order.totalAmount)}</span></p>` +
      `<form method="post" action="/pay/${order.token}"><button id="pay" type="submit">Pay</button></form>`,
  );
}

export function resultPage(order: PageOrder, status: number, answer: string): string {
  const back = order.returnUrl ? `<a id="return" href="${escapeHtml(order.returnUrl)}">Back to the merchant</a>` : '';
  return page(
    `<p id="paid">Paid. The merchant answered HTTP <span id="merchant-status">${status}</span>: ` +
      `<span id="merchant-answer">${escapeHtml(answer)}</span></p>${back}`,
  );
}

export function errorPage(subCode: string, subMsg: string): string {
  return page(`<p id="error">错误代码 <span id="error-code">${escapeHtml(subCode)}</span>: ${escapeHtml(subMsg)}</p>`);
}
