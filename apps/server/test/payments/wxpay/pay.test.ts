import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentGateway } from '../../../src/payments/gateway.js';
import { createWxpayGateway } from '../../../src/payments/wxpay/index.js';
import { orderFor } from '../gateway-order.js';
import { startWxpaySimulator, type WxpaySimulator } from './simulator.js';

const NOTIFY_URL = 'https://pay.example.com/api/payment/notify/0f2a';

let simulator: WxpaySimulator;
/** Untyped, as the registry hands it configs: stored configs are not trusted to have any shape. */
let gateway: PaymentGateway;
const wxpay = (wxpayApiBase: string) => createWxpayGateway({ wxpayApiBase }) as unknown as PaymentGateway;

beforeAll(async () => {
  simulator = await startWxpaySimulator();
  gateway = wxpay(simulator.url);
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

const otherPem = (type: 'pkcs8' | 'spki') => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return (type === 'pkcs8' ? pair.privateKey : pair.publicKey).export({ format: 'pem', type }).toString();
};

describe('WeChat Pay Native prepay', () => {
  it('sends a request WeChat Pay accepts and shows the code_url as a QR code', async () => {
    const order = orderFor(NOTIFY_URL, 7312);
    const payment = await gateway.pay(simulator.config(), order);

    const [received] = simulator.received;
    expect(received?.authorization).toMatchObject({
      ok: true,
      fields: { mchid: simulator.keys.mchId, serial_no: simulator.keys.merchantSerial },
    });
    expect(received?.path).toBe('/v3/pay/transactions/native');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers.accept).toBe('application/json');
    const body = JSON.parse(received?.body ?? '{}');
    expect(body).toMatchObject({
      appid: simulator.keys.appId,
      mchid: simulator.keys.mchId,
      description: order.subject,
      out_trade_no: order.tradeNo,
      notify_url: NOTIFY_URL,
      amount: { total: 7312, currency: 'CNY' },
    });
    // The QR code stops being payable before the order service closes the order (3 h).
    const expires = Date.parse(body.time_expire) / 1000 - Date.now() / 1000;
    expect(expires).toBeGreaterThan(60 * 60);
    expect(expires).toBeLessThan(3 * 60 * 60);

    const sim = simulator.orders.get(order.tradeNo);
    expect(payment).toEqual({ type: 2, url: `${simulator.url}/pay/${sim?.token}` });
  });

  it('keeps a long subject within 127 bytes of UTF-8 without cutting a character', async () => {
    const order = orderFor(NOTIFY_URL, 100, { subject: `${'充值'.repeat(40)}` });
    await gateway.pay(simulator.config(), order);
    const description = JSON.parse(simulator.received[0]?.body ?? '{}').description as string;
    expect(Buffer.byteLength(description)).toBeLessThanOrEqual(127);
    expect(description).toBe('充值'.repeat(21));
  });

  it('is refused by WeChat Pay when signed with a key that is not the merchant certificate', async () => {
    const config = simulator.config({ mch_private_key: otherPem('pkcs8') });
    await expect(gateway.pay(config, orderFor(NOTIFY_URL, 100))).rejects.toThrow(/SIGN_ERROR.*mch_private_key/);
    expect(simulator.received[0]?.authorization.ok).toBe(false);
  });

  it('is refused when the serial number is not the merchant certificate', async () => {
    const config = simulator.config({ mch_certificate_serial_number: 'ABCDEF0123' });
    await expect(gateway.pay(config, orderFor(NOTIFY_URL, 100))).rejects.toThrow(/SIGN_ERROR/);
  });

  it.each([
    ['forged', /Wechatpay-Signature does not match/],
    ['unsigned', /missing Wechatpay-Timestamp/],
    ['wrong-serial', /Wechatpay-Serial .* is not the configured/],
  ] as const)('does not trust a %s answer', async (answer, message) => {
    simulator.behaviour = { answer };
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(message);
  });

  it('does not trust an answer checked with another WeChat Pay public key', async () => {
    const config = simulator.config({ wechatpay_public_key: otherPem('spki') });
    await expect(gateway.pay(config, orderFor(NOTIFY_URL, 100))).rejects.toThrow(/does not match the body/);
  });

  it("reports WeChat Pay's refusal with its code and message", async () => {
    simulator.behaviour = { answer: 'genuine', refuse: { status: 403, code: 'NO_AUTH', message: '商户无此接口权限' } };
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      'WeChat Pay refused the order: NO_AUTH: 商户无此接口权限',
    );
  });

  it('refuses a non-CNY order before calling WeChat Pay', async () => {
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100, { currency: 'USD' }))).rejects.toThrow(
      /CNY only/,
    );
    expect(simulator.received).toHaveLength(0);
  });

  it('names the field when a stored config cannot sign (an imported row without the public key)', async () => {
    const { wechatpay_public_key: _dropped, ...imported } = simulator.config();
    await expect(gateway.pay(imported, orderFor(NOTIFY_URL, 100))).rejects.toThrow(/wechatpay_public_key is required/);
    expect(simulator.received).toHaveLength(0);
  });

  it('says WeChat Pay could not be reached when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const offline = wxpay(`http://127.0.0.1:${port}`);
    await expect(offline.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      /could not be reached \(ECONNREFUSED\)/,
    );
  });
});

describe('WeChat Pay config', () => {
  const messageFor = (config: Record<string, unknown>) => {
    const parsed = gateway.configSchema.safeParse(config);
    return parsed.success ? 'valid' : parsed.error.issues[0]?.message;
  };

  it('accepts what the merchant platform gives and defaults pay_type to Native', () => {
    const { pay_type: _default, ...config } = simulator.config();
    expect(gateway.configSchema.parse(config)).toMatchObject({ pay_type: 'Native', mch_id: simulator.keys.mchId });
    expect(gateway.secretFields).toEqual(['mch_apiv3_key', 'mch_private_key']);
  });

  it.each([
    [{ mch_apiv3_key: 'x'.repeat(31) }, /mch_apiv3_key must be exactly 32/],
    [{ mch_private_key: 'not a key' }, /mch_private_key is not a PEM private key/],
    [{ mch_private_key: '' }, /mch_private_key is required/],
    [{ wechatpay_public_key: 'MIIBIjANBgkq' }, /wechatpay_public_key is not a PEM public key/],
    [{ wechatpay_public_key_id: '' }, /wechatpay_public_key_id is required/],
    [{ pay_type: 'JSAPI' }, /pay_type must be Native/],
    [{ mch_id: '16x' }, /mch_id must be the merchant number/],
    [{ mch_certificate_serial_number: 'serial?' }, /hexadecimal serial number/],
    [{ app_id: '' }, /app_id is required/],
  ])('names the field of a bad value: %o', (change, message) => {
    expect(messageFor({ ...simulator.config(), ...change })).toMatch(message);
  });

  it('refuses an EC key where an RSA key is needed', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    expect(messageFor({ ...simulator.config(), mch_private_key: ec })).toMatch(/mch_private_key is a ec key, not RSA/);
  });
});
