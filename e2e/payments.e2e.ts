import type { OrderQuote, OrderView, Paged } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { startEpaySimulator } from '../apps/server/test/payments/epay/simulator.js';
import { text } from './support/browser.js';
import {
  call,
  dollars,
  gateways,
  money,
  openPage,
  openPaymentScreen,
  PAYER,
  payerAuth,
  phone,
  QUOTA_PER_DOLLAR,
  root,
  server,
  settledScreenshot,
  signIn,
  signInAsRoot,
  usePaymentSite,
} from './support/payments.js';

const site = usePaymentSite(startEpaySimulator);

const GATEWAY_NAME = 'Epay sandbox';
const AMOUNT = 10;

describe('online payments', () => {
  let tradeNo = '';
  const epay = () => site.vendor;

  it('an administrator adds an Epay gateway; its key is stored but never shown again', async () => {
    const page = await openPage();
    await signInAsRoot(page);
    await openPaymentScreen(page);
    await page.getByTestId('payment-empty').waitFor();

    await page.getByTestId('payment-create').click();
    await page.getByTestId('payment-form-name').fill(GATEWAY_NAME);
    await page.getByTestId('payment-form-percent_fee').fill('5');
    await page.getByTestId('payment-form-config-pay_domain').fill(epay().url);
    await page.getByTestId('payment-form-config-partner_id').fill(epay().partnerId);
    // A missing required setting, and the missing icon (spec §5), are named before anything is sent.
    await page.getByTestId('payment-form-submit').click();
    await page.locator('.MuiFormHelperText-root.Mui-error').first().waitFor();
    expect(await page.getByTestId('payment-form-icon').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('payment-form-config-key').getAttribute('aria-invalid')).toBe('true');
    expect(await gateways()).toEqual([]);

    await page.getByTestId('payment-form-icon').fill('/favicon.svg');
    await page.getByTestId('payment-form-config-key').fill(epay().key);
    await page.getByTestId('payment-form-submit').click();
    await page.getByTestId('payment-form').waitFor({ state: 'detached' });

    const [saved] = await gateways();
    expect(saved).toMatchObject({
      name: GATEWAY_NAME,
      type: 'epay',
      icon: '/favicon.svg',
      percent_fee: 0.05,
      enable: true,
    });
    expect(saved?.config).not.toContain(epay().key);
    await page.getByTestId(`payment-name-${saved?.id}`).waitFor();
    expect(await text(page, `payment-uuid-${saved?.id}`)).toBe(saved?.uuid);

    // The edit dialog shows the stored mask; saving it untouched keeps the key that works.
    await page.getByTestId(`payment-edit-${saved?.id}`).click();
    const keyField = page.getByTestId('payment-form-config-key');
    expect(await keyField.inputValue()).not.toBe(epay().key);
    expect(await keyField.inputValue()).toBe(JSON.parse(saved?.config ?? '{}').key);
    await keyField.scrollIntoViewIfNeeded();
    await settledScreenshot(page, 'payments-gateway-edit');
    await page.getByTestId('payment-form-submit').click();
    await page.getByTestId('payment-form').waitFor({ state: 'detached' });

    // The list's switch and sort field save on their own; a disabled gateway is hidden from users.
    const id = saved?.id ?? 0;
    await page.getByTestId(`payment-toggle-${id}`).click();
    await expect.poll(async () => (await gateways())[0]?.enable).toBe(false);
    expect(await call<unknown[]>('GET', '/api/user/payment', await payerAuth())).toEqual([]);
    await page.getByTestId(`payment-toggle-${id}`).click();
    await expect.poll(async () => (await gateways())[0]?.enable).toBe(true);
    await page.getByTestId(`payment-sort-${id}`).fill('7');
    await page.getByTestId(`payment-sort-${id}`).press('Enter');
    await expect.poll(async () => (await gateways())[0]?.sort).toBe(7);
    await settledScreenshot(page, 'payments-gateways');
  });

  it('an admin (not root) is offered only what it may change: no add or delete, the vendor settings read-only', async () => {
    const admin = { username: 'payadmin', password: 'payadmin-password-1', display_name: 'Pay admin' };
    await call('POST', '/api/user/', root, admin);
    await call('POST', '/api/user/manage', root, { username: admin.username, action: 'promote' });
    const [gateway] = await gateways();
    const id = gateway?.id ?? 0;
    const page = await openPage();
    await signIn(page, admin.username, admin.password);
    await openPaymentScreen(page);
    await page.getByTestId(`payment-name-${id}`).waitFor();
    expect(await page.getByTestId('payment-create').count()).toBe(0);
    expect(await page.getByTestId(`payment-delete-${id}`).count()).toBe(0);

    await page.getByTestId(`payment-edit-${id}`).click();
    for (const field of ['notify_domain', 'config-pay_domain', 'config-partner_id', 'config-key']) {
      expect(await page.getByTestId(`payment-form-${field}`).isDisabled(), field).toBe(true);
    }
    // What it may change saves: the untouched settings travel back as they came and are no change.
    await page.getByTestId('payment-form-name').fill(`${GATEWAY_NAME} (admin)`);
    await page.getByTestId('payment-form-submit').click();
    await page.getByTestId('payment-form').waitFor({ state: 'detached' });
    await expect.poll(async () => (await gateways())[0]?.name).toBe(`${GATEWAY_NAME} (admin)`);
    expect((await gateways())[0]?.config).toBe(gateway?.config);
    await call('PUT', '/api/payment/', root, { id, name: GATEWAY_NAME });
  });

  it('a user tops up through the Epay cashier: the console shows success and the balance grows', async () => {
    const [gateway] = await gateways();
    const payer = await payerAuth();
    const before = (await call<{ quota: number }>('GET', '/api/user/self', payer)).quota;
    const quote = await call<OrderQuote>('GET', `/api/user/order/quote?uuid=${gateway?.uuid}&amount=${AMOUNT}`, payer);
    expect(quote.fee).toBeGreaterThan(0);

    const page = await openPage();
    await signIn(page, PAYER.username, PAYER.password);
    await page.goto(`${server.origin}/panel/topup`);
    await page.getByTestId(`topup-gateway-${gateway?.uuid}`).waitFor();
    await page.getByTestId(`topup-preset-${AMOUNT}`).click();
    // The price shown before paying is the server's quote, fee included.
    await expect.poll(() => text(page, 'topup-quote-total')).toContain(money(quote, quote.order_amount));
    expect(await text(page, 'topup-quote-fee')).toContain(money(quote, quote.fee));
    expect(await text(page, 'topup-quote-quota')).toContain(dollars(quote.quota));

    const cashierOpened = page.context().waitForEvent('page');
    await page.getByTestId('topup-pay').click();
    const cashier = await cashierOpened;
    await cashier.waitForURL((url) => url.href.startsWith(epay().url));
    await page.getByTestId('topup-pay-state-pending').waitFor();
    await settledScreenshot(page, 'payments-topup-waiting');

    // The simulator's page stands in for the vendor's: paying there sends the signed callback.
    await cashier.getByRole('button').first().click();
    await page.getByTestId('topup-pay-state-success').waitFor();
    const credited = before + AMOUNT * QUOTA_PER_DOLLAR;
    await settledScreenshot(page, 'payments-topup-paid');
    await page.getByTestId('topup-pay-close').click();
    await expect.poll(() => text(page, 'topup-balance')).toBe(dollars(credited));
    expect((await call<{ quota: number }>('GET', '/api/user/self', payer)).quota).toBe(credited);

    const orders = await call<Paged<OrderView>>('GET', '/api/payment/order', root);
    const paid = orders.data.find((order) => order.gateway_id === gateway?.id);
    expect(paid).toMatchObject({ status: 'success', amount: AMOUNT, order_amount: quote.order_amount });
    tradeNo = paid?.trade_no ?? '';
  });

  it('the Payment screen finds the order by its trade number, in every theme and on a phone', async () => {
    expect(tradeNo).not.toBe('');
    const shots = [
      { name: 'payments-orders', options: {} },
      { name: 'payments-orders-dark', options: { dark: true } },
      { name: 'payments-orders-zh', options: { language: 'zh_CN' } },
      { name: 'payments-orders-phone', options: { viewport: phone } },
    ];
    for (const shot of shots) {
      const page = await openPage(shot.options);
      await signInAsRoot(page);
      await openPaymentScreen(page, shot.name !== 'payments-orders-phone');
      await page.getByTestId('payment-tab-orders').click();
      await page.getByTestId('payment-order-tradeNo-filter').fill(tradeNo);
      await page.waitForURL((url) => url.searchParams.get('trade_no') === tradeNo);
      await page.getByTestId(`payment-order-trade-${tradeNo}`).first().waitFor();
      const chip = page.locator('[data-testid^="payment-order-status-"][data-state]');
      await expect.poll(() => chip.count()).toBe(1);
      expect(await chip.getAttribute('data-state')).toBe('success');
      await settledScreenshot(page, shot.name);
    }
  }, 180_000);

  it('the analytics show the paid money by currency and per day', async () => {
    const page = await openPage();
    await signInAsRoot(page);
    await page.goto(`${server.origin}/panel/analytics`);
    await page.getByTestId('analytics-summary').waitFor();
    // One paid order: the totals show its money in its own currency, with two decimals.
    const [order] = (await call<Paged<OrderView>>('GET', '/api/payment/order?status=success', root)).data;
    const sign = order?.order_currency === 'CNY' ? '¥' : '$';
    await expect.poll(() => text(page, 'analytics-card-topups-money')).toBe(`${sign}${order?.order_amount.toFixed(2)}`);
    expect(await text(page, 'analytics-orders-total')).toBe(order?.order_amount.toFixed(2));
    await page.getByTestId('analytics-orders-chart').waitFor();
    await settledScreenshot(page, 'payments-analytics');
  });

  it('deletes a gateway only after confirming', async () => {
    const [gateway] = await gateways();
    const page = await openPage();
    await signInAsRoot(page);
    await openPaymentScreen(page);
    await page.getByTestId(`payment-delete-${gateway?.id}`).click();
    await page.getByTestId('payment-delete-dialog').waitFor();
    expect(await gateways()).toHaveLength(1);
    await page.getByTestId('payment-delete-dialog-confirm').click();
    await page.getByTestId('payment-empty').waitFor();
    expect(await gateways()).toEqual([]);
  });
});
