/** The simulator's stand-in for what a payer sees after scanning the QR code: the order and a Pay button. */

interface ShownOrder {
  outTradeNo: string;
  description: string;
  /** Fen. */
  total: number;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const yuan = (fen: number): string => `¥${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

function page(title: string, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;text-align:center}
button{background:#07c160;color:#fff;border:0;border-radius:6px;padding:.8rem 3rem;font-size:1.1rem}</style></head>
<body><h1>WeChat Pay (simulator)</h1>${content}</body></html>`;
}

export function payPage(order: ShownOrder): string {
  return page(
    'WeChat Pay',
    `<p id="description">${escapeHtml(order.description)}</p>
<p id="amount" style="font-size:2rem">${yuan(order.total)}</p>
<p>Order <span id="out-trade-no">${escapeHtml(order.outTradeNo)}</span></p>
<form method="post"><button type="submit" id="pay">Pay</button></form>`,
  );
}

/** What the merchant answered the notification: 200 or 204 is WeChat Pay's "received". */
export function resultPage(order: ShownOrder, status: number, answer: string): string {
  const accepted = status === 200 || status === 204;
  const text = accepted
    ? `Paid ${yuan(order.total)}. The merchant acknowledged the notification (HTTP ${status}).`
    : `Paid ${yuan(order.total)}, but the merchant refused the notification (HTTP ${status}): ${answer}`;
  return page('WeChat Pay', `<p id="result" data-status="${status}">${escapeHtml(text)}</p>`);
}
