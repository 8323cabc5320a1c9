import type { PaymentGatewayType } from '@one-hub/contracts';
import { createAlipayGateway } from './alipay/index.js';
import { createEpayGateway } from './epay/index.js';
import type { GatewayEndpoints, PaymentGateway } from './gateway.js';
import { createStripeGateway } from './stripe/index.js';
import { createWxpayGateway } from './wxpay/index.js';

/** Every gateway this server can take payments with, by `payments.type`. */
export type GatewayRegistry = ReadonlyMap<PaymentGatewayType, PaymentGateway>;

/**
 * One line per gateway. A type missing here cannot be created (400 naming it), and callbacks for
 * an existing row of that type answer "payment not found".
 */
export function createGatewayRegistry(endpoints: GatewayEndpoints): GatewayRegistry {
  // Each gateway keeps its own config type; the registry hands configs through untyped.
  const gateways: PaymentGateway[] = [
    createEpayGateway() as unknown as PaymentGateway,
    createStripeGateway(endpoints) as unknown as PaymentGateway,
    createAlipayGateway(endpoints) as unknown as PaymentGateway,
    createWxpayGateway(endpoints) as unknown as PaymentGateway,
    // ── other gateways: one line each, e.g. `createAlipayGateway(endpoints) as unknown as PaymentGateway,` ──
  ];
  void endpoints;
  return new Map(gateways.map((gateway) => [gateway.type, gateway]));
}
