import { describe, expect, it } from 'vitest';
import { startAlipaySimulator } from '../apps/server/test/payments/alipay/simulator.js';
import {
  createGateway,
  expectCreditedOnce,
  expectRepeatCreditsNothing,
  expectSecretsMasked,
  expectServerQuote,
  fillGatewayDialog,
  lastDelivery,
  openPaymentScreenAsRoot,
  openScannedCode,
  openTopUp,
  payerState,
  payInNewTab,
  saveGatewayDialog,
  server,
  settledScreenshot,
  startQrTopUp,
  usePaymentSite,
} from './support/payments.js';

const site = usePaymentSite(startAlipaySimulator, (alipay) => ({ PAYMENT_ALIPAY_GATEWAY: alipay.gatewayUrl }));
const alipay = () => site.vendor;

const QR_GATEWAY = 'Alipay QR';
const PAGE_GATEWAY = 'Alipay cashier';

describe('Alipay in the browser', () => {
  it('an administrator adds an Alipay face-to-face gateway by pasting its keys; the private key shows masked', async () => {
    const page = await openPaymentScreenAsRoot();
    const config = alipay().config({ keyFormat: 'pem-pkcs8', publicKeyFormat: 'pem' });
    await fillGatewayDialog(page, {
      type: 'alipay',
      name: QR_GATEWAY,
      currency: 'CNY',
      config: {
        app_id: config.app_id ?? '',
        private_key: config.private_key ?? '',
        public_key: config.public_key ?? '',
      },
      choices: { pay_type: 'facepay' },
      percentFee: 3,
    });
    const saved = await saveGatewayDialog(page, QR_GATEWAY);

    expect(saved).toMatchObject({ type: 'alipay', currency: 'CNY', percent_fee: 0.03, enable: true });
    expect(JSON.parse(saved.config)).toMatchObject({ app_id: config.app_id, pay_type: 'facepay' });
    await expectSecretsMasked(page, saved, { private_key: config.private_key ?? '' });
    await settledScreenshot(page, 'payments-alipay-gateways');
  });

  it('a user pays the QR code with the phone: the console shows it paid and credits the balance once', async () => {
    const amount = 12;
    const { before, page, quote, order, url } = await startQrTopUp(QR_GATEWAY, amount);
    // Alipay was asked for the quoted yuan, and its answer's code is what the console shows.
    const precreate = alipay().received.at(-1);
    expect(precreate?.params.method).toBe('alipay.trade.precreate');
    expect(JSON.parse(precreate?.params.biz_content ?? '{}')).toMatchObject({
      out_trade_no: order.trade_no,
      total_amount: quote.order_amount.toFixed(2),
    });
    await settledScreenshot(page, 'payments-alipay-qr');

    const phonePage = await openScannedCode(url);
    expect(await phonePage.locator('#amount').textContent()).toBe(quote.order_amount.toFixed(2));
    await phonePage.locator('#pay').click();
    expect(await phonePage.locator('#merchant-answer').textContent()).toBe('success');

    await expectCreditedOnce(page, order.trade_no, before, amount, 'payments-alipay-qr-paid');
    // Alipay re-sends a notification it got no `success` for; a repeat credits nothing more.
    expect((await alipay().sendDuplicate(lastDelivery(alipay().deliveries))).answer).toBe('success');
    await expectRepeatCreditsNothing(page, before, amount);
  });

  it('a user pays on the Alipay cashier page (page pay) in a new tab and comes back to a paid order', async () => {
    const gateway = await createGateway({
      type: 'alipay',
      name: PAGE_GATEWAY,
      currency: 'CNY',
      config: alipay().config({ payType: 'pagepay' }),
      percent_fee: 0.02,
    });
    const before = await payerState();
    const amount = 5;
    const page = await openTopUp(gateway, amount);
    const quote = await expectServerQuote(page, gateway, amount);

    const { order, cashier } = await payInNewTab(page, alipay().gatewayUrl);
    expect(new URL(cashier.url()).searchParams.get('method')).toBe('alipay.trade.page.pay');
    expect(await cashier.locator('#trade-no').textContent()).toBe(order.trade_no);
    expect(await cashier.locator('#amount').textContent()).toBe(quote.order_amount.toFixed(2));
    await cashier.locator('#pay').click();
    expect(await cashier.locator('#merchant-answer').textContent()).toBe('success');

    await expectCreditedOnce(page, order.trade_no, before, amount);
    // The cashier's link back leads to the console's log page.
    await cashier.locator('#return').click();
    await cashier.waitForURL((url) => url.href === `${server.origin}/panel/log`);
  });
});
