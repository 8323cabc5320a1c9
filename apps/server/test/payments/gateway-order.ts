import type { GatewayOrder } from '../../src/payments/gateway.js';

let sequence = 0;

/** An order as the order service hands it to a gateway; a fresh trade number each call. */
export function orderFor(notifyUrl: string, amountCents: number, overrides: Partial<GatewayOrder> = {}): GatewayOrder {
  sequence += 1;
  return {
    tradeNo: `${Date.now()}${String(sequence).padStart(6, '0')}`,
    amountCents,
    currency: 'CNY',
    subject: 'One Hub-Token充值:10',
    notifyUrl,
    gatewayUuid: 'a'.repeat(32),
    returnUrl: 'http://127.0.0.1:1/panel/log',
    user: { id: 7, username: 'payer', email: 'payer@example.com' },
    clientIp: '127.0.0.1',
    ...overrides,
  };
}
