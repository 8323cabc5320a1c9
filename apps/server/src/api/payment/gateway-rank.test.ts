import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { privateKeyText, publicKeyText, rsaPair } from '../../../test/payments/alipay/vendor.js';
import { epaySignature } from '../../../test/payments/epay/simulator.js';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';
import { createKeys as createWxpayKeys, gatewayConfig as wxpayConfig } from '../../../test/payments/wxpay/account.js';

const ROOT_KEY = 'root-merchant-key-0123456789';
const ADMIN_KEY = 'admin-chosen-key-9876543210';
const QUOTA_PER_UNIT = 500_000;

/**
 * Issue 29 item 2: an admin must not be able to credit itself through a payment gateway whose
 * keys it chose. Creating or deleting a gateway and changing its vendor settings (type, config,
 * notify_domain) is root's; an admin keeps names, order, on/off and fees; root's changes leave a
 * system row naming the fields, never their values.
 */
describe.each(availableDialects)('who may change a payment gateway on %s', (dialect) => {
  let t: PaymentTestApp;
  let admin: { id: number; cookie: string };
  let gateway: { id: number; uuid: string; config: string };
  const epayConfig = (key: string) =>
    JSON.stringify({ pay_domain: 'https://pay.example.com', partner_id: '1001', key, pay_type: 'alipay' });

  /** Root's system rows about gateways, as root reads them through the log API. */
  async function gatewayAudit(): Promise<string[]> {
    const response = await t.call('GET', '/api/log/?log_type=4&size=100', t.root);
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().data.data as { content: string; username: string }[];
    return rows.filter((row) => row.content.startsWith('支付网关')).map((row) => `${row.username}: ${row.content}`);
  }

  /** The Epay callback the admin can build itself for an order, signed with `key`. */
  async function selfSignedCallback(tradeNo: string, money: string, key: string) {
    const params: Record<string, string> = {
      pid: '1001',
      trade_no: `EP${tradeNo}`,
      out_trade_no: tradeNo,
      type: 'alipay',
      name: tradeNo,
      money,
      trade_status: 'TRADE_SUCCESS',
    };
    params.sign = epaySignature(params, key);
    params.sign_type = 'MD5';
    const response = await fetch(`${t.base}/api/payment/notify/${gateway.uuid}?${new URLSearchParams(params)}`);
    return response.text();
  }

  beforeAll(async () => {
    t = await startPaymentApp(dialect);
    const created = await t.createUser('pay-boss');
    const promoted = await t.call('POST', '/api/user/manage', t.root, { username: 'pay-boss', action: 'promote' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    admin = { id: created.id, cookie: await t.login('pay-boss', 'password-123') };
    gateway = await t.createGateway({ type: 'epay', name: 'Epay', currency: 'USD', config: epayConfig(ROOT_KEY) });
  });
  afterAll(() => t?.close());

  it('refuses an admin creating a gateway with a key of its choosing', async () => {
    const body = { type: 'epay', name: 'Mine', currency: 'USD', config: epayConfig(ADMIN_KEY) };
    const response = await t.call('POST', '/api/payment/', admin.cookie, body);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('root');
    const rows = await t.database.db.selectFrom('payments').select('name').execute();
    expect(rows.map((row) => row.name)).toEqual(['Epay']);
  });

  it("refuses an admin changing root's key, so a self-signed callback for $1,000,000 credits nothing", async () => {
    const view = (await t.call('GET', `/api/payment/${gateway.id}`, admin.cookie)).json().data;
    const attempts = [
      { ...view, config: epayConfig(ADMIN_KEY) },
      { id: gateway.id, config: epayConfig(ADMIN_KEY) },
    ];
    for (const attempt of attempts) {
      const response = await t.call('PUT', '/api/payment/', admin.cookie, attempt);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().message).toContain('config.key');
    }
    const usable = await t.services.payments.gateways.usable(gateway.uuid);
    expect(usable?.config.key).toBe(ROOT_KEY);

    const order = await t.call('POST', '/api/user/order', admin.cookie, { uuid: gateway.uuid, amount: 1_000_000 });
    expect(order.statusCode, order.body).toBe(200);
    const { trade_no: tradeNo, data } = order.json().data;
    const before = await t.quotaOf(admin.id);
    expect(await selfSignedCallback(tradeNo, data.params.money, ADMIN_KEY)).toBe('fail');
    expect(await t.quotaOf(admin.id)).toBe(before);
    expect((await t.order(tradeNo)).status).toBe('pending');
    // The same callback signed with the key root set is believed: only the key made the difference.
    expect(await selfSignedCallback(tradeNo, data.params.money, ROOT_KEY)).toBe('success');
    expect(await t.quotaOf(admin.id)).toBe(before + 1_000_000 * QUOTA_PER_UNIT);
  });

  it('refuses an admin other vendor settings, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ notify_domain: 'https://admin.example.com' }, 'notify_domain'],
      [{ config: JSON.stringify({ ...JSON.parse(gateway.config), partner_id: '2002' }) }, 'config.partner_id'],
      [
        { config: JSON.stringify({ ...JSON.parse(gateway.config), pay_domain: 'https://evil.example.com' }) },
        'config.pay_domain',
      ],
      [{ type: 'stripe', config: JSON.stringify({ secret_key: 'sk_test_admin' }) }, 'type'],
    ];
    for (const [fields, named] of cases) {
      const response = await t.call('PUT', '/api/payment/', admin.cookie, { id: gateway.id, ...fields });
      expect(response.statusCode, named).toBe(403);
      expect(response.json().message).toContain(named);
    }
    expect((await t.call('DELETE', `/api/payment/${gateway.id}`, admin.cookie)).statusCode).toBe(403);
    expect((await t.call('GET', `/api/payment/${gateway.id}`, t.root)).json().data.notify_domain).toBe('');
  });

  it('lets an admin rename, re-sort and switch a gateway, echoing the masked config, with no audit row', async () => {
    const auditBefore = await gatewayAudit();
    const view = (await t.call('GET', `/api/payment/${gateway.id}`, admin.cookie)).json().data;
    const renamed = await t.call('PUT', '/api/payment/', admin.cookie, { ...view, name: 'Epay renamed', sort: 9 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Epay renamed', sort: 9, config: view.config });
    for (const enable of [false, true]) {
      const toggled = await t.call('PUT', '/api/payment/', admin.cookie, { id: gateway.id, enable });
      expect(toggled.statusCode, toggled.body).toBe(200);
      expect(toggled.json().data.enable).toBe(enable);
    }
    const echoed = await t.call('PUT', '/api/payment/', admin.cookie, { id: gateway.id, config: view.config });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect((await t.services.payments.gateways.usable(gateway.uuid))?.config.key).toBe(ROOT_KEY);
    expect(await gatewayAudit()).toEqual(auditBefore);
  });

  it("writes root's key change to a system row naming the fields, never the values", async () => {
    const newKey = 'root-rotated-key-5555555555';
    const changed = await t.call('PUT', '/api/payment/', t.root, { id: gateway.id, config: epayConfig(newKey) });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await t.services.payments.gateways.usable(gateway.uuid))?.config.key).toBe(newKey);
    const audit = await gatewayAudit();
    expect(audit).toContain(`root: 支付网关 #${gateway.id} Epay renamed (epay) changed config.key by root`);
    // The same fact in structured form, which the console words in the reader's language (issue 31).
    const rows = (await t.call('GET', '/api/log/?log_type=4&size=100', t.root)).json().data.data as {
      content: string;
      metadata: unknown;
    }[];
    const row = rows.find((entry) => entry.content.endsWith('changed config.key by root'));
    expect(row?.metadata).toEqual({
      event: 'payment_gateway',
      change: 'changed',
      gateway_id: gateway.id,
      gateway_name: 'Epay renamed',
      gateway_type: 'epay',
      fields: ['config.key'],
      actor: 'root',
    });
    expect(audit.join('\n')).not.toContain(newKey);
    expect(audit.join('\n')).not.toContain(ROOT_KEY);
    expect(audit.some((row) => row.includes('created with config.pay_domain, config.partner_id, config.key'))).toBe(
      true,
    );
  });

  it("refuses an admin replacing Alipay's or WeChat Pay's public key, and lets it echo them unchanged", async () => {
    const alipayKeys = { merchant: rsaPair(), vendor: rsaPair() };
    const alipay = {
      app_id: '2021004100000001',
      private_key: privateKeyText(alipayKeys.merchant.privateKey, 'bare-pkcs1'),
      public_key: publicKeyText(alipayKeys.vendor.publicKey),
      pay_type: 'facepay',
    };
    const wxpayKeys = createWxpayKeys();
    const gateways = [
      [
        await t.createGateway({ type: 'alipay', name: 'Alipay', currency: 'CNY', config: JSON.stringify(alipay) }),
        'public_key',
        publicKeyText(rsaPair().publicKey),
      ],
      [
        await t.createGateway({
          type: 'wxpay',
          name: 'WeChat',
          currency: 'CNY',
          config: JSON.stringify(wxpayConfig(wxpayKeys)),
        }),
        'wechatpay_public_key',
        rsaPair().publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      ],
    ] as const;
    for (const [created, field, adminKey] of gateways) {
      const view = (await t.call('GET', `/api/payment/${created.id}`, admin.cookie)).json().data;
      const config = JSON.stringify({ ...JSON.parse(view.config), [field]: adminKey });
      const refused = await t.call('PUT', '/api/payment/', admin.cookie, { ...view, config });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toContain(`config.${field}`);
      const echoed = await t.call('PUT', '/api/payment/', admin.cookie, { ...view, name: `${view.name} 2` });
      expect(echoed.statusCode, echoed.body).toBe(200);
      expect(echoed.json().data.config).toBe(view.config);
    }
  });

  it('lets only root delete a gateway, leaving a row', async () => {
    const spare = await t.createGateway({ type: 'epay', name: 'Spare', currency: 'USD', config: epayConfig(ROOT_KEY) });
    const refused = await t.call('DELETE', `/api/payment/${spare.id}`, admin.cookie);
    expect(refused.statusCode).toBe(403);
    expect((await t.call('GET', `/api/payment/${spare.id}`, admin.cookie)).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/payment/${spare.id}`, t.root)).statusCode).toBe(200);
    expect(await gatewayAudit()).toContain(`root: 支付网关 #${spare.id} Spare (epay) deleted by root`);
  });
});
