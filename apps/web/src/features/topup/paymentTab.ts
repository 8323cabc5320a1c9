import type { PayInstruction } from '@one-hub/contracts';

/**
 * The vendor's payment page opens in a new tab. Browsers only allow a new tab during the click
 * itself, and the order is created after it (a server round trip later), so the tab is opened
 * blank at the click and filled once the server answers. Without it (blocked all the same), the
 * dialog's "open the payment page again" button opens it with a click of its own.
 */
export interface ReservedTab {
  name: string;
  window: Window | null;
}

export function reservePaymentTab(): ReservedTab {
  const name = `one-hub-pay-${Date.now()}`;
  const opened = window.open('about:blank', name);
  // The vendor's page must not be able to reach back into the console through window.opener.
  if (opened) opened.opener = null;
  return { name, window: opened };
}

/** Closes a reserved tab the order did not need (a QR code order, or a refused one). */
export function releasePaymentTab(tab: ReservedTab | null): void {
  if (tab?.window && !tab.window.closed) tab.window.close();
}

/** Type 1 orders go to the gateway's page: a GET link, or a form POST carrying the gateway's fields. */
export function openPaymentPage(order: PayInstruction, tab: ReservedTab | null = null): void {
  if (order.type !== 1) {
    releasePaymentTab(tab);
    return;
  }
  const reserved = tab?.window && !tab.window.closed ? tab : null;
  const { url, method, params } = order.data;
  if (!params || method === 'GET') {
    const target = new URL(url, window.location.href);
    for (const [name, value] of Object.entries(params ?? {})) target.searchParams.set(name, String(value));
    if (reserved?.window) reserved.window.location.href = target.href;
    else window.open(target.href, '_blank', 'noopener');
    return;
  }
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.target = reserved?.name ?? '_blank';
  for (const [name, value] of Object.entries(params)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}
