import type { PaymentGatewayView } from '@one-hub/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startStripeSimulator } from '../apps/server/test/payments/stripe/simulator.js';
import { text } from './support/browser.js';
import {
  createGateway,
  dollars,
  expectCreditedOnce,
  expectRepeatChangesNothing,
  expectServerQuote,
  openTopUp,
  orderOf,
  payerState,
  payInNewTab,
  QUOTA_PER_DOLLAR,
  server,
  settledScreenshot,
  usePaymentSite,
} from './support/payments.js';

const site = usePaymentSite(startStripeSimulator, (stripe) => ({ PAYMENT_STRIPE_API_BASE: stripe.baseUrl }));
const stripe = () => site.vendor;

let gateway: PaymentGatewayView;

beforeAll(async () => {
  gateway = await createGateway({
    type: 'stripe',
    name: 'Stripe',
    currency: 'USD',
    config: { secret_key: stripe().secretKey },
    percent_fee: 0.03,
  });
});

/** The Checkout Session Stripe made for the order. */
function sessionOf(tradeNo: string) {
  const session = [...stripe().sessions.values()].find((candidate) => candidate.client_reference_id === tradeNo);
  if (!session) throw new Error(`no checkout session for ${tradeNo}`);
  return session;
}

/** Opens Top up, checks the quote, presses Pay and answers the order with Stripe's Checkout tab. */
async function checkout(amount: number): Promise<{ page: Page; cashier: Page; tradeNo: string }> {
  const page = await openTopUp(gateway, amount);
  const quote = await expectServerQuote(page, gateway, amount);
  const { order, cashier } = await payInNewTab(page, stripe().baseUrl);
  // Checkout shows what the server quoted, in cents, for this order.
  expect(sessionOf(order.trade_no)).toMatchObject({
    amount_total: Math.round(quote.order_amount * 100),
    currency: 'usd',
  });
  expect(await cashier.locator('#amount').textContent()).toBe(`USD ${quote.order_amount.toFixed(2)}`);
  return { page, cashier, tradeNo: order.trade_no };
}

describe('Stripe Checkout in the browser', () => {
  it('saving the gateway registered its webhook with Stripe', () => {
    const [endpoint, ...others] = stripe().webhookEndpoints.values();
    expect(others).toEqual([]);
    expect(endpoint?.url).toBe(`${server.origin}/api/payment/notify/${gateway.uuid}`);
    expect(gateway.config).not.toContain(stripe().secretKey);
  });

  it('a user pays by card on the Checkout page: the console shows it paid and credits once', async () => {
    const before = await payerState();
    const amount = 10;
    const { page, cashier, tradeNo } = await checkout(amount);
    await cashier.locator('#pay').click();
    // Stripe sends the payer back to the console once the session completed.
    await cashier.waitForURL((url) => url.href === `${server.origin}/panel/log`);

    await expectCreditedOnce(page, tradeNo, before, amount, 'payments-stripe-paid');
    expect((await orderOf(tradeNo)).gateway_no).toBe(sessionOf(tradeNo).payment_intent);
    // Stripe retries a delivery it got no 2xx for; a repeat credits nothing more.
    const event = stripe().events.find((candidate) => candidate.data.object.id === sessionOf(tradeNo).id);
    if (!event) throw new Error('the simulator sent no event');
    const [repeat] = await stripe().resend(event.id);
    expect(repeat?.status).toBe(200);
    await expectRepeatChangesNothing(page, {
      quota: before.quota + amount * QUOTA_PER_DOLLAR,
      topUps: before.topUps + 1,
    });
  });

  it('a bank debit is not credited while it settles, and the order shows failed when it bounces', async () => {
    const before = await payerState();
    const { page, cashier, tradeNo } = await checkout(20);
    await cashier.locator('#pay-delayed').click();
    await cashier.waitForURL((url) => url.href === `${server.origin}/panel/log`);

    // The session completed unpaid: acknowledged, nothing credited, the console still waits.
    expect(sessionOf(tradeNo)).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(stripe().deliveries.at(-1)).toMatchObject({ eventType: 'checkout.session.completed', status: 200 });
    expect((await orderOf(tradeNo)).status).toBe('pending');
    await page.getByTestId('topup-pay-state-pending').waitFor();

    const [bounce] = await stripe().settleDelayed(sessionOf(tradeNo).id, 'failed');
    expect(bounce?.status).toBe(200);
    await page.getByTestId('topup-pay-state-failed').waitFor();
    await settledScreenshot(page, 'payments-stripe-failed');
    expect((await orderOf(tradeNo)).status).toBe('failed');
    expect(await payerState()).toEqual(before);
    await page.getByTestId('topup-pay-close').click();
    expect(await text(page, 'topup-balance')).toBe(dollars(before.quota));
  });

  it('a bank debit that succeeds later is credited once, when Stripe reports it', async () => {
    const before = await payerState();
    const amount = 3;
    const { page, cashier, tradeNo } = await checkout(amount);
    await cashier.locator('#pay-delayed').click();
    await cashier.waitForURL((url) => url.href === `${server.origin}/panel/log`);
    expect((await orderOf(tradeNo)).status).toBe('pending');
    await page.getByTestId('topup-pay-state-pending').waitFor();

    const [settled] = await stripe().settleDelayed(sessionOf(tradeNo).id, 'succeeded');
    expect(settled).toMatchObject({ eventType: 'checkout.session.async_payment_succeeded', status: 200 });
    await expectCreditedOnce(page, tradeNo, before, amount);
  });
});
