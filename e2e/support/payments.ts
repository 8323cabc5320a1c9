/// <reference lib="dom" />
/**
 * The site the payment browser tests share: the built server, an administrator (root, by access
 * token), a paying user, and one vendor simulator of the server's payment tests standing in for
 * the vendor (its pay page is what the payer clicks). `usePaymentSite()` starts them in the
 * file's `beforeAll`; the bindings below are live. The steps every gateway's test takes (create a
 * gateway in the console, top up, check the credit) are here too.
 */
import type { OrderQuote, OrderView, Paged, PayInstruction, PaymentGatewayView } from '@one-hub/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiAuth, apiCall, sessionCookie } from './api.js';
import { launchBrowser, screenshot, signInWithForm, text } from './browser.js';
import { type PageOptions, pageOpener, phone } from './pages.js';
import { type RunningServer, startServer } from './server.js';

export { phone } from './pages.js';

export const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-payments-01';
export const QUOTA_PER_DOLLAR = 500_000;
export const PAYER = { username: 'payer', password: 'payer-password-1', display_name: 'Payer' };

export let server: RunningServer;
let browser: Browser;
const pages = pageOpener(() => browser);

export const root: ApiAuth = { token: ROOT_TOKEN };
export const call = <T>(method: string, path: string, auth: ApiAuth, body?: unknown) =>
  apiCall<T>(server.origin, method, path, auth, body);
export const payerAuth = async (): Promise<ApiAuth> => ({
  cookie: await sessionCookie(server.origin, PAYER.username, PAYER.password),
});
export const dollars = (quota: number) => `$${(quota / QUOTA_PER_DOLLAR).toFixed(2)}`;
/** How the console writes money of a quote's currency. */
export const money = (quote: Pick<OrderQuote, 'currency'>, value: number) =>
  `${quote.currency === 'CNY' ? '¥' : '$'}${value.toFixed(2)}`;

export const openPage = pages.open;
export const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);
export const signInAsRoot = (page: Page) => signIn(page, 'root', ROOT_PASSWORD);

/** Waits for fonts and for the toasts to go, so screenshots show the screen and nothing passing. */
export async function settledScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.locator('.notistack-MuiContent').count(), { timeout: 15_000 }).toBe(0);
  await screenshot(page, name);
}

/** The vendor simulator a file pays through, live once the file's `beforeAll` ran. */
export interface PaymentSite<Vendor> {
  vendor: Vendor;
}

/**
 * Starts the vendor's simulator, the server (pointed at it by `env`) and the browser before the
 * file's tests; stops them after.
 */
export function usePaymentSite<Vendor extends { close(): Promise<void> }>(
  startVendor: () => Promise<Vendor>,
  env: (vendor: Vendor) => Record<string, string> = () => ({}),
): PaymentSite<Vendor> {
  const site = {} as PaymentSite<Vendor>;
  beforeAll(async () => {
    site.vendor = await startVendor();
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      CRITICAL_RATE_LIMIT: '0',
      ...env(site.vendor),
    });
    // The notify URL the server gives vendors is built from ServerAddress: the simulator calls it back.
    await call('PUT', '/api/option/', root, { key: 'ServerAddress', value: server.origin });
    await call('POST', '/api/user/', root, PAYER);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
    await site.vendor?.close();
  });
  return site;
}

// ---------------------------------------------------------------------------------------------
// The administrator's side: gateways.

export async function gateways(): Promise<PaymentGatewayView[]> {
  return (await call<Paged<PaymentGatewayView>>('GET', '/api/payment/', root)).data;
}

export async function gatewayNamed(name: string): Promise<PaymentGatewayView> {
  const found = (await gateways()).find((gateway) => gateway.name === name);
  if (!found) throw new Error(`no gateway named ${name}`);
  return found;
}

/** Creates a gateway through the API, as root (for gateways whose dialog another test covers). */
export async function createGateway(body: {
  type: PaymentGatewayView['type'];
  name: string;
  currency: PaymentGatewayView['currency'];
  config: Record<string, string>;
  /** A fraction (0.03 = 3 %). */
  percent_fee?: number;
}): Promise<PaymentGatewayView> {
  await call('POST', '/api/payment/', root, { ...body, config: JSON.stringify(body.config) });
  return gatewayNamed(body.name);
}

/** Through the drawer menu on a desktop (Payment sits in the paySetting group); by address on a phone. */
export async function openPaymentScreen(page: Page, viaMenu = true): Promise<void> {
  if (!viaMenu) {
    await page.goto(`${server.origin}/panel/payment`);
    return;
  }
  const item = page.getByTestId('menu-payment');
  if (!(await item.isVisible())) await page.getByTestId('menu-paySetting').click();
  await item.click();
  await page.waitForURL((url) => url.pathname === '/panel/payment');
}

/** A fresh page signed in as root, on the Payments screen. */
export async function openPaymentScreenAsRoot(): Promise<Page> {
  const page = await openPage();
  await signInAsRoot(page);
  await openPaymentScreen(page);
  return page;
}

/** Picks `optionTestId` in the MUI select whose hidden input has `inputTestId`. */
export async function choose(page: Page, inputTestId: string, optionTestId: string): Promise<void> {
  const field = page.locator('.MuiFormControl-root', { has: page.getByTestId(inputTestId) });
  await field.getByRole('combobox').click();
  await page.getByTestId(optionTestId).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

export interface ConsoleGateway {
  type: PaymentGatewayView['type'];
  name: string;
  currency: PaymentGatewayView['currency'];
  /** Text settings, typed (or pasted) into their fields. */
  config: Record<string, string>;
  /** Settings chosen from a list (`pay_type`). */
  choices?: Record<string, string>;
  /** The percent fee as typed (5 = 5 %). */
  percentFee?: number;
  /** The icon's address (required by the dialog); the site's own favicon unless given. */
  icon?: string;
}

/** Opens the gateway dialog on the Payment screen (signed in as root) and fills it in, without saving. */
export async function fillGatewayDialog(page: Page, gateway: ConsoleGateway): Promise<void> {
  await page.getByTestId('payment-create').click();
  await choose(page, 'payment-form-type', `payment-form-type-${gateway.type}`);
  await page.getByTestId('payment-form-name').fill(gateway.name);
  await page.getByTestId('payment-form-icon').fill(gateway.icon ?? '/favicon.svg');
  for (const [field, value] of Object.entries(gateway.config)) {
    await page.getByTestId(`payment-form-config-${field}`).fill(value);
  }
  for (const [field, value] of Object.entries(gateway.choices ?? {})) {
    await choose(page, `payment-form-config-${field}`, `payment-form-config-${field}-option-${value}`);
  }
  await choose(page, 'payment-form-currency', `payment-form-currency-${gateway.currency}`);
  if (gateway.percentFee !== undefined) {
    await page.getByTestId('payment-form-percent_fee').fill(String(gateway.percentFee));
  }
}

/** Saves the dialog and answers the gateway as the API lists it. */
export async function saveGatewayDialog(page: Page, name: string): Promise<PaymentGatewayView> {
  await page.getByTestId('payment-form-submit').click();
  await page.getByTestId('payment-form').waitFor({ state: 'detached' });
  const saved = await gatewayNamed(name);
  await page.getByTestId(`payment-name-${saved.id}`).waitFor();
  return saved;
}

/**
 * The secrets typed into the dialog never come back: the API lists them masked, and the edit
 * dialog shows that mask (in the same field), which saved untouched keeps the real value.
 */
export async function expectSecretsMasked(
  page: Page,
  gateway: PaymentGatewayView,
  secrets: Record<string, string>,
): Promise<void> {
  const shown = JSON.parse(gateway.config) as Record<string, string>;
  for (const [field, secret] of Object.entries(secrets)) {
    // No stretch of the secret (here the middle of its longest line: PEM spans lines) is in what the API lists.
    const line = secret.split('\n').reduce((longest, next) => (next.length > longest.length ? next : longest));
    const middle = Math.floor(line.length / 2);
    expect(gateway.config).not.toContain(line.slice(middle - 8, middle + 8));
    expect(shown[field]).toContain('••••');
  }
  await page.getByTestId(`payment-edit-${gateway.id}`).click();
  for (const field of Object.keys(secrets)) {
    expect(await page.getByTestId(`payment-form-config-${field}`).inputValue()).toBe(shown[field]);
  }
  await page.getByTestId('payment-form-cancel').click();
  await page.getByTestId('payment-form').waitFor({ state: 'detached' });
}

// ---------------------------------------------------------------------------------------------
// The payer's side: topping up in the console.

export interface PayerState {
  quota: number;
  /** Top-up log rows (type 1): one per credited payment. */
  topUps: number;
}

export async function payerState(): Promise<PayerState> {
  const auth = await payerAuth();
  const self = await call<{ quota: number }>('GET', '/api/user/self', auth);
  const logs = await call<Paged<unknown>>('GET', '/api/log/self?log_type=1', auth);
  return { quota: self.quota, topUps: logs.total_count };
}

export async function orderOf(tradeNo: string): Promise<OrderView> {
  const orders = await call<Paged<OrderView>>('GET', `/api/payment/order?trade_no=${tradeNo}`, root);
  const order = orders.data.find((candidate) => candidate.trade_no === tradeNo);
  if (!order) throw new Error(`no order ${tradeNo}`);
  return order;
}

/** Opens Top up as the payer in a fresh page, picks the gateway and types the amount; answers the page. */
export async function openTopUp(gateway: PaymentGatewayView, amount: number, options: PageOptions = {}): Promise<Page> {
  const payerPage = await openPage(options);
  await signIn(payerPage, PAYER.username, PAYER.password);
  await payerPage.goto(`${server.origin}/panel/topup`);
  await payerPage.getByTestId(`topup-gateway-${gateway.uuid}`).click();
  await payerPage.getByTestId('topup-amount').fill(String(amount));
  return payerPage;
}

/** The price shown before paying is the server's quote for this gateway and amount, fee included. */
export async function expectServerQuote(page: Page, gateway: PaymentGatewayView, amount: number): Promise<OrderQuote> {
  const quote = await call<OrderQuote>(
    'GET',
    `/api/user/order/quote?uuid=${gateway.uuid}&amount=${amount}`,
    await payerAuth(),
  );
  expect(quote.currency).toBe(gateway.currency);
  await expect.poll(() => text(page, 'topup-quote-total')).toContain(money(quote, quote.order_amount));
  // The fee line is shown only when there is a fee.
  if (quote.fee > 0) expect(await text(page, 'topup-quote-fee')).toContain(money(quote, quote.fee));
  else expect(await page.getByTestId('topup-quote-fee').count()).toBe(0);
  expect(await text(page, 'topup-quote-quota')).toContain(dollars(quote.quota));
  return quote;
}

/** Presses Pay and answers the order the server created for it. */
export async function pressPay(page: Page): Promise<PayInstruction> {
  const created = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/user/order',
  );
  await page.getByTestId('topup-pay').click();
  const response = await created;
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: PayInstruction }).data;
}

/** Presses Pay on a gateway whose vendor page opens in a new tab; answers the order and that tab at the vendor. */
export async function payInNewTab(page: Page, vendorUrl: string): Promise<{ order: PayInstruction; cashier: Page }> {
  const opened = page.context().waitForEvent('page');
  const order = await pressPay(page);
  expect(order.type).toBe(1);
  const cashier = await opened;
  await cashier.waitForURL((url) => url.href.startsWith(vendorUrl));
  await page.getByTestId('topup-pay-state-pending').waitFor();
  return { order, cashier };
}

/**
 * Presses Pay on a gateway that answers a QR code: the code is shown, and the address it encodes
 * (the QR element's `data-url`, also written below it) is the one the server answered.
 */
export async function payByQrCode(page: Page): Promise<{ order: PayInstruction; url: string }> {
  const order = await pressPay(page);
  expect(order.type).toBe(2);
  const code = page.getByTestId('topup-pay-qr');
  await code.locator('svg').waitFor();
  const url = (await code.getAttribute('data-url')) ?? '';
  expect(url).toBe(order.data.url);
  await page.getByTestId('topup-pay-state-pending').waitFor();
  return { order, url };
}

/**
 * A QR top-up up to the code: the payer's state before, Top up opened on the gateway named with
 * the server's quote checked, and Pay pressed (the code shown).
 */
export async function startQrTopUp(gatewayName: string, amount: number, options: PageOptions = {}) {
  const gateway = await gatewayNamed(gatewayName);
  const before = await payerState();
  const page = await openTopUp(gateway, amount, options);
  const quote = await expectServerQuote(page, gateway, amount);
  const { order, url } = await payByQrCode(page);
  return { gateway, before, page, quote, order, url };
}

/** Scans the code "with the phone": opens its address in a phone-sized page of its own. */
export async function openScannedCode(url: string): Promise<Page> {
  const phonePage = await openPage({ viewport: phone });
  await phonePage.goto(url);
  return phonePage;
}

/**
 * After the vendor reported the payment: the dialog says paid, the balance on the page and in the
 * API grew by exactly the amount bought, with one top-up log row, and the order is `success`.
 */
export async function expectCreditedOnce(
  page: Page,
  tradeNo: string,
  before: PayerState,
  amount: number,
  screenshotName?: string,
): Promise<void> {
  await page.getByTestId('topup-pay-state-success').waitFor();
  if (screenshotName) await settledScreenshot(page, screenshotName);
  await page.getByTestId('topup-pay-close').click();
  const credited = before.quota + amount * QUOTA_PER_DOLLAR;
  await expect.poll(() => text(page, 'topup-balance')).toBe(dollars(credited));
  expect(await payerState()).toEqual({ quota: credited, topUps: before.topUps + 1 });
  expect(await orderOf(tradeNo)).toMatchObject({ status: 'success', amount });
}

/** The last notification a simulator sent (each keeps them in `deliveries`). */
export function lastDelivery<Delivery>(deliveries: Delivery[]): Delivery {
  const delivery = deliveries.at(-1);
  if (!delivery) throw new Error('the simulator sent no notification');
  return delivery;
}

/** After one top-up of `amount` credited: a repeated notification credits nothing more. */
export const expectRepeatCreditsNothing = (page: Page, before: PayerState, amount: number): Promise<void> =>
  expectRepeatChangesNothing(page, { quota: before.quota + amount * QUOTA_PER_DOLLAR, topUps: before.topUps + 1 });

/** A vendor's repeated notification for a paid order changes nothing, on the page or in the API. */
export async function expectRepeatChangesNothing(page: Page, after: PayerState): Promise<void> {
  expect(await payerState()).toEqual(after);
  await page.reload();
  await expect.poll(() => text(page, 'topup-balance')).toBe(dollars(after.quota));
}
