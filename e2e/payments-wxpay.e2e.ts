import { describe, expect, it } from 'vitest';
import { startWxpaySimulator } from '../apps/server/test/payments/wxpay/simulator.js';
import {
  expectCreditedOnce,
  expectRepeatCreditsNothing,
  expectSecretsMasked,
  fillGatewayDialog,
  gateways,
  lastDelivery,
  openPaymentScreenAsRoot,
  openScannedCode,
  saveGatewayDialog,
  server,
  settledScreenshot,
  startQrTopUp,
  usePaymentSite,
} from './support/payments.js';

const site = usePaymentSite(startWxpaySimulator, (wxpay) => ({ PAYMENT_WXPAY_API_BASE: wxpay.url }));
const wxpay = () => site.vendor;

const GATEWAY = 'WeChat Pay';

describe('WeChat Pay in the browser', () => {
  it('an administrator adds a WeChat Pay Native gateway by pasting its keys; the secrets show masked', async () => {
    const page = await openPaymentScreenAsRoot();
    const { pay_type: _native, ...config } = wxpay().config();
    await fillGatewayDialog(page, {
      type: 'wxpay',
      name: GATEWAY,
      currency: 'CNY',
      config: { ...config, wechatpay_public_key_id: '' },
      percentFee: 1,
    });
    // With a public key (not a platform certificate) its id is required, and named before anything is sent.
    await page.getByTestId('payment-form-submit').click();
    const idField = page.locator('.MuiFormControl-root', {
      has: page.getByTestId('payment-form-config-wechatpay_public_key_id'),
    });
    await idField.locator('.MuiFormHelperText-root.Mui-error').waitFor();
    expect(await gateways()).toEqual([]);

    await page.getByTestId('payment-form-config-wechatpay_public_key_id').fill(config.wechatpay_public_key_id ?? '');
    const saved = await saveGatewayDialog(page, GATEWAY);
    expect(saved).toMatchObject({ type: 'wxpay', currency: 'CNY', percent_fee: 0.01 });
    expect(JSON.parse(saved.config)).toMatchObject({
      mch_id: wxpay().keys.mchId,
      wechatpay_public_key_id: wxpay().keys.wechatpayPublicKeyId,
      pay_type: 'Native',
    });
    await expectSecretsMasked(page, saved, {
      mch_apiv3_key: wxpay().keys.apiV3Key,
      mch_private_key: wxpay().keys.merchantPrivateKey,
    });
  });

  it('a user (in Chinese) scans the Native QR code and pays: the console shows it paid and credits once', async () => {
    const amount = 8;
    const { gateway, before, page, quote, order, url } = await startQrTopUp(GATEWAY, amount, { language: 'zh_CN' });
    const prepay = JSON.parse(wxpay().received.at(-1)?.body ?? '{}');
    expect(prepay).toMatchObject({
      out_trade_no: order.trade_no,
      notify_url: `${server.origin}/api/payment/notify/${gateway.uuid}`,
      amount: { total: Math.round(quote.order_amount * 100), currency: 'CNY' },
    });
    await settledScreenshot(page, 'payments-wxpay-qr-zh');

    const phonePage = await openScannedCode(url);
    expect(await phonePage.locator('#amount').textContent()).toBe(`¥${quote.order_amount.toFixed(2)}`);
    await phonePage.locator('#pay').click();
    expect(await phonePage.locator('#result').getAttribute('data-status')).toBe('204');

    await expectCreditedOnce(page, order.trade_no, before, amount, 'payments-wxpay-paid-zh');
    // WeChat Pay retries a notification: freshly signed, the same transaction; it credits nothing more.
    expect((await wxpay().sendDuplicate(lastDelivery(wxpay().deliveries), prepay.notify_url)).status).toBe(204);
    await expectRepeatCreditsNothing(page, before, amount);
  });
});
