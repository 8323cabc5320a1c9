import { PAYMENT_GATEWAY_TYPES, type PaymentGatewayView, paymentGatewayBody } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { lookup, readCatalogues } from '../../i18n/checks/catalogues.js';
import {
  buildConfig,
  emptyGatewayForm,
  GATEWAY_CONFIG_FIELDS,
  gatewayToForm,
  isRequired,
  parseConfig,
  validateGatewayForm,
} from './gatewayForm.js';
import { dateInputToSeconds, secondsToDateInput } from './paymentDates.js';
import { orderListSearch, parseOrderListParams } from './paymentListParams.js';

const t = (key: string) => key;

const storedEpay: PaymentGatewayView = {
  id: 3,
  uuid: 'a'.repeat(32),
  type: 'epay',
  name: 'Epay',
  icon: 'https://pay.example.com/epay.png',
  notify_domain: '',
  fixed_fee: 0,
  percent_fee: 0.05,
  currency: 'CNY',
  config: JSON.stringify({
    pay_domain: 'https://pay.example.com',
    partner_id: '1001',
    key: 'abc••••wxyz',
    pay_type: '',
  }),
  sort: 5,
  enable: true,
  created_at: 1,
  updated_at: 1,
};

describe('gateway form', () => {
  it('opens a stored gateway with its settings, the fee in percent and the masked secret', () => {
    const form = gatewayToForm(storedEpay);
    expect(form.percent_fee).toBe('5');
    expect(form.config).toEqual({
      pay_domain: 'https://pay.example.com',
      partner_id: '1001',
      key: 'abc••••wxyz',
      pay_type: '',
    });
  });

  it('sends an untouched secret back masked (kept by the server) and a typed one as typed', () => {
    const form = gatewayToForm(storedEpay);
    const stored = parseConfig(storedEpay.config);
    const kept = validateGatewayForm(form, stored, t);
    expect(kept.ok && JSON.parse(kept.body.config).key).toBe('abc••••wxyz');
    const changed = validateGatewayForm({ ...form, config: { ...form.config, key: 'new-key' } }, stored, t);
    expect(changed.ok && JSON.parse(changed.body.config).key).toBe('new-key');
    expect(changed.ok && changed.body.percent_fee).toBe(0.05);
    // The column keeps two decimals of the fraction, so fees are whole percents.
    expect(validateGatewayForm({ ...form, percent_fee: '2.5' }, stored, t).ok).toBe(false);
  });

  it('keeps settings the server added for the same type, and drops another type’s', () => {
    const stored = { secret_key: 'sk_••••', webhook_secret: 'whsec_••••' };
    const values = { ...emptyGatewayForm('stripe'), config: { secret_key: 'sk_••••' } };
    expect(JSON.parse(buildConfig(values, stored))).toEqual(stored);
    expect(JSON.parse(buildConfig(values, {}))).toEqual({ secret_key: 'sk_••••' });
  });

  it('names the fields that are wrong, including required settings of the type', () => {
    const result = validateGatewayForm(
      { ...emptyGatewayForm('alipay'), name: ' ', percent_fee: '150', sort: '-1', notify_domain: 'ftp://x' },
      {},
      t,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      [
        'config.app_id',
        'config.private_key',
        'config.public_key',
        'icon',
        'name',
        'notify_domain',
        'percent_fee',
        'sort',
      ].sort(),
    );
    expect(result.errors['config.app_id']).toBe('payment:form.errors.required');
  });

  it('requires an icon (spec §5), spaces alone are none, while the API body keeps it optional', () => {
    const stored = parseConfig(storedEpay.config);
    const form = gatewayToForm(storedEpay);
    for (const icon of ['', '   ']) {
      const refused = validateGatewayForm({ ...form, icon }, stored, t);
      expect(!refused.ok && refused.errors).toEqual({ icon: 'payment:form.errors.icon' });
    }
    const accepted = validateGatewayForm({ ...form, icon: ' /epay.png ' }, stored, t);
    expect(accepted.ok && accepted.body.icon).toBe('/epay.png');
    const { icon: _icon, ...withoutIcon } = paymentGatewayBody.parse({ ...storedEpay });
    expect(paymentGatewayBody.parse(withoutIcon).icon).toBe('');
  });

  it('asks for the WeChat Pay public key id only when a public key, not a platform certificate, is pasted', () => {
    const config = {
      app_id: 'wx0123456789abcdef',
      mch_id: '1600000001',
      mch_certificate_serial_number: 'ABC123',
      mch_apiv3_key: 'k'.repeat(32),
      mch_private_key: '-----BEGIN PRIVATE KEY-----\nMII…\n-----END PRIVATE KEY-----',
      wechatpay_public_key: '-----BEGIN PUBLIC KEY-----\nMII…\n-----END PUBLIC KEY-----',
      wechatpay_public_key_id: '',
      pay_type: 'Native',
    };
    const form = { ...emptyGatewayForm('wxpay'), name: 'WeChat Pay', icon: '/wxpay.svg', config };
    const field = GATEWAY_CONFIG_FIELDS.wxpay.find((entry) => entry.name === 'wechatpay_public_key_id');
    if (!field) throw new Error('no wechatpay_public_key_id field');

    const withKey = validateGatewayForm(form, {}, t);
    expect(withKey.ok).toBe(false);
    expect(!withKey.ok && withKey.errors).toEqual({ 'config.wechatpay_public_key_id': 'payment:form.errors.required' });
    expect(isRequired(field, config)).toBe(true);

    const certificate = '-----BEGIN CERTIFICATE-----\nMII…\n-----END CERTIFICATE-----';
    const withCertificate = { ...config, wechatpay_public_key: certificate };
    expect(isRequired(field, withCertificate)).toBe(false);
    const accepted = validateGatewayForm({ ...form, config: withCertificate }, {}, t);
    expect(accepted.ok && JSON.parse(accepted.body.config).wechatpay_public_key_id).toBe('');
  });

  it('has a label, help text and option names for every setting in every language', () => {
    const catalogues = readCatalogues();
    const missing: string[] = [];
    for (const [language, namespaces] of Object.entries(catalogues)) {
      for (const type of PAYMENT_GATEWAY_TYPES) {
        const keys = [`types.${type}`];
        for (const field of GATEWAY_CONFIG_FIELDS[type]) {
          keys.push(`fields.${field.name}`, `help.${type}.${field.name}`);
          for (const option of field.options ?? []) keys.push(`options.${field.name}.${option || 'default'}`);
        }
        for (const key of keys)
          if (typeof lookup(namespaces.payment, key) !== 'string') missing.push(`${language}:${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('order list filters', () => {
  it('round-trips through the URL and ignores values the server would refuse', () => {
    const params = parseOrderListParams(new URLSearchParams('tab=orders&trade_no=T1&status=success&user_id=7&page=2'));
    expect(params).toMatchObject({ trade_no: 'T1', status: 'success', user_id: 7, page: 2 });
    expect(parseOrderListParams(orderListSearch(params))).toEqual(params);
    const bad = parseOrderListParams(new URLSearchParams('status=paid&user_id=-1&size=7'));
    expect(bad).toMatchObject({ status: '', user_id: 0, size: 10 });
  });

  it('turns the date inputs into the start and the end of the local day', () => {
    const start = dateInputToSeconds('2026-03-05', 'start');
    const end = dateInputToSeconds('2026-03-05', 'end');
    expect(new Date(start * 1000).getHours()).toBe(0);
    expect(end - start).toBeGreaterThanOrEqual(23 * 3600);
    expect(secondsToDateInput(end)).toBe('2026-03-05');
    expect(dateInputToSeconds('', 'start')).toBe(0);
  });
});
