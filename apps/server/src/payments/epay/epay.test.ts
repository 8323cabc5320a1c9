import { PaymentAction } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { createEpayGateway } from './index.js';
import { epaySign } from './sign.js';

const config = { pay_domain: 'https://pay.example.com', partner_id: '1001', key: 'k3y', pay_type: '' as const };
const callback = (query: Record<string, string>) => ({ method: 'GET', query, headers: {}, rawBody: Buffer.alloc(0) });
const signed = (query: Record<string, string>) => ({ ...query, sign: epaySign(query, config.key), sign_type: 'MD5' });

describe('the Epay gateway', () => {
  const gateway = createEpayGateway();

  it('signs the sorted non-empty parameters plus the key as lower-case MD5', () => {
    // md5("a=1&b=2k3y") computed outside: empty values and sign/sign_type are left out.
    expect(epaySign({ b: '2', a: '1', c: '', sign: 'x', sign_type: 'MD5' }, 'k3y')).toBe(
      'b8da605b325578d98123aea6451d45b6',
    );
  });

  it('leaves out an empty pay_type so Epay shows its cashier, and sends money with two decimals', async () => {
    const payment = await gateway.pay(config, {
      tradeNo: '42',
      amountCents: 1205,
      currency: 'CNY',
      subject: 's',
      notifyUrl: 'https://gw/api/payment/notify/u',
      gatewayUuid: 'u',
      returnUrl: 'https://gw/panel/log',
      user: { id: 1, username: 'u', email: '' },
      clientIp: '127.0.0.1',
    });
    expect(payment).toMatchObject({
      type: PaymentAction.openUrl,
      url: 'https://pay.example.com/submit.php',
      method: 'POST',
    });
    const params = payment.type === PaymentAction.openUrl ? (payment.params ?? {}) : {};
    expect(params.type).toBeUndefined();
    expect(params.money).toBe('12.05');
    expect(params.sign).toBe(epaySign(params, config.key));
  });

  it('reads a signed TRADE_SUCCESS callback and rejects tampering, another merchant and bad money', async () => {
    const good = signed({
      pid: '1001',
      out_trade_no: '42',
      trade_no: 'E1',
      money: '12.05',
      trade_status: 'TRADE_SUCCESS',
    });
    expect(await gateway.verify(config, callback(good), { uuid: 'u' })).toEqual({
      kind: 'paid',
      tradeNo: '42',
      gatewayNo: 'E1',
      paidCents: 1205,
    });
    expect((await gateway.verify(config, callback({ ...good, money: '99.00' }), { uuid: 'u' })).kind).toBe('rejected');
    const other = signed({ pid: '2002', out_trade_no: '42', money: '12.05', trade_status: 'TRADE_SUCCESS' });
    expect((await gateway.verify(config, callback(other), { uuid: 'u' })).kind).toBe('rejected');
    const badMoney = signed({ pid: '1001', out_trade_no: '42', money: 'abc', trade_status: 'TRADE_SUCCESS' });
    expect((await gateway.verify(config, callback(badMoney), { uuid: 'u' })).kind).toBe('rejected');
    expect(gateway.answer('ok').body).toBe('success');
    expect(gateway.answer('fail').body).toBe('fail');
  });
});
