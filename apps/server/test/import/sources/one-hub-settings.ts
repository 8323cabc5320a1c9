import { randomString } from '../../../src/platform/crypto.js';
import type { DialectName } from '../../../src/platform/db/index.js';
import { dateTime, insertLegacyRows, type SourceKysely } from '../fixture.js';
import { DAY, NOW } from './one-hub-rows.js';

/** The One Hub fixture's small tables, and rows of features this server does not have. */

export async function insertSettings(db: SourceKysely, dialect: DialectName): Promise<void> {
  await insertLegacyRows(db, dialect, 'options', [
    { key: 'SystemName', value: 'Old Hub' },
    { key: 'RetryTimes', value: '2' },
    { key: 'QuotaRemindThreshold', value: 'lots' },
    { key: 'GroupRatio', value: '{"default":1}' },
    { key: 'SomethingOnlyOneHubHas', value: '1' },
    { key: 'SMTPToken', value: 'smtp-secret-value' },
  ]);
  const group = (symbol: string, ratio: number, isPublic: boolean) => ({
    symbol,
    name: symbol.toUpperCase(),
    ratio,
    api_rate: 300,
    public: isPublic,
    promotion: false,
    min: 0,
    max: 0,
    enable: true,
  });
  await insertLegacyRows(db, dialect, 'user_groups', [
    group('default', 1, true),
    group('vip', 1, false),
    group('svip', 0.8, false),
    group('team', 0.5, true),
  ]);
  // Rows as the Go One Hub stored them: its wire numbers (1 OpenAI, 14 Anthropic) are the data the
  // importer reads, so they stay numbers here.
  await insertLegacyRows(db, dialect, 'prices', [
    {
      model: 'gpt-4o-mini',
      type: 'tokens',
      channel_type: 1,
      input: 0.075,
      output: 0.3,
      locked: false,
      extra_ratios: {},
    },
    {
      model: 'claude-3-5-sonnet',
      type: 'tokens',
      channel_type: 14,
      input: 1.5,
      output: 7.5,
      locked: true,
      extra_ratios: { cached_tokens: 0.1 },
    },
    { model: 'dall-e-3', type: 'times', channel_type: 1, input: 20, output: 20, locked: false, extra_ratios: null },
  ]);
  await insertLegacyRows(db, dialect, 'model_owned_by', [
    { id: 1, name: 'OpenAI', icon: 'https://example.com/openai.png' },
    { id: 1001, name: 'Acme AI', icon: 'https://example.com/acme.png' },
  ]);
  await insertLegacyRows(db, dialect, 'model_info', [
    {
      model: 'gpt-4o-mini',
      name: 'GPT-4o mini',
      description: 'small and fast',
      context_length: 128000,
      max_tokens: 16384,
      input_modalities: '["text","image"]',
      output_modalities: '["text"]',
      tags: '["chat"]',
      support_url: 'https://platform.openai.com',
      created_at: NOW - DAY,
      updated_at: NOW - DAY,
    },
  ]);
}

/** The One Hub fixture's payment gateways and orders (alice is user 2). */
export const oneHubPayments = {
  epay: { id: 1, uuid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', key: 'old-epay-merchant-key-42', partnerId: '1042' },
  stripeId: 2,
  deletedId: 3,
  /** Paid before the move: imported as it is, never credited again. */
  paid: { tradeNo: 'OH-PAID-0001', quota: 5_000_000 },
  /** Still open at the move: a callback after it credits the user here, once. */
  pending: { tradeNo: 'OH-PENDING-0002', quota: 2_500_000, money: '36.50' },
  /** Not one of the four order statuses: left out and reported. */
  oddStatusTradeNo: 'OH-ODD-0003',
};

function paymentRow(fields: Record<string, unknown>) {
  return {
    icon: '',
    notify_domain: '',
    fixed_fee: 0,
    percent_fee: 0,
    currency: 'CNY',
    sort: 1,
    enable: true,
    created_at: NOW - DAY,
    updated_at: NOW - DAY,
    deleted_at: null,
    ...fields,
  };
}

function orderRow(fields: Record<string, unknown>) {
  return {
    user_id: 2,
    gateway_id: oneHubPayments.epay.id,
    gateway_no: '',
    amount: 5,
    order_amount: 36.5,
    order_currency: 'CNY',
    quota: 0,
    fee: 0,
    discount: 0,
    status: 'pending',
    created_at: NOW - 60,
    updated_at: NOW - 60,
    deleted_at: null,
    ...fields,
  };
}

export async function insertPayments(db: SourceKysely, dialect: DialectName): Promise<void> {
  const { epay } = oneHubPayments;
  await insertLegacyRows(db, dialect, 'payments', [
    paymentRow({
      id: epay.id,
      type: 'epay',
      uuid: epay.uuid,
      name: 'Old Epay',
      percent_fee: 0.03,
      config: JSON.stringify({
        pay_domain: 'https://pay.example.com',
        partner_id: epay.partnerId,
        key: epay.key,
        pay_type: '',
      }),
    }),
    // One Hub lets a Stripe row be saved half set up; here it arrives disabled until completed.
    paymentRow({
      id: oneHubPayments.stripeId,
      type: 'stripe',
      uuid: randomString(32),
      name: 'Stripe',
      currency: 'USD',
      config: '{}',
    }),
    paymentRow({
      id: oneHubPayments.deletedId,
      type: 'alipay',
      uuid: randomString(32),
      name: 'Removed Alipay',
      config: '{}',
      enable: false,
      deleted_at: dateTime(dialect, NOW - DAY),
    }),
  ]);
  await insertLegacyRows(db, dialect, 'orders', [
    orderRow({
      trade_no: oneHubPayments.paid.tradeNo,
      gateway_no: 'EP-OLD-1',
      quota: oneHubPayments.paid.quota,
      status: 'success',
      fee: 1.06,
    }),
    orderRow({
      trade_no: oneHubPayments.pending.tradeNo,
      quota: oneHubPayments.pending.quota,
      order_amount: Number(oneHubPayments.pending.money),
    }),
    orderRow({ trade_no: oneHubPayments.oddStatusTradeNo, status: 'refunding' }),
  ]);
}
