import type { SimCheckoutSession } from './api-routes.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** `1234, "usd"` → `USD 12.34`: Stripe's two-decimal currencies, which are all this gateway uses. */
const money = (minor: number, currency: string): string =>
  `${currency.toUpperCase()} ${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/**
 * The stand-in for Stripe's hosted Checkout page. "Pay" (a card) posts back to the simulator,
 * which marks the session paid, delivers the signed `checkout.session.completed` event to every
 * registered webhook, then sends the browser to `success_url`, as Stripe does. "Pay by bank debit"
 * (`#pay-delayed`) completes the session `unpaid`, as a delayed method does; the test settles it
 * later with `settleDelayed`.
 */
export function checkoutPage(session: SimCheckoutSession): string {
  const item = session.line_items[0];
  const open = session.status === 'open';
  const cancel = session.cancel_url ? `<a id="cancel" href="${escapeHtml(session.cancel_url)}">Cancel</a>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stripe Checkout (simulator)</title></head>
<body>
  <h1>Stripe Checkout (simulator)</h1>
  <p id="product">${escapeHtml(item?.name ?? '')}</p>
  <p id="amount">${escapeHtml(money(session.amount_total, session.currency))}</p>
  <p id="email">${escapeHtml(session.customer_email ?? '')}</p>
  ${
    open
      ? `<form method="post" action="/c/pay/${escapeHtml(session.id)}"><button id="pay" type="submit">Pay</button>` +
        `<button id="pay-delayed" type="submit" name="method" value="bank_debit">Pay by bank debit</button></form>${cancel}`
      : `<p id="status">This checkout session is ${escapeHtml(session.status)}.</p>`
  }
</body></html>`;
}
