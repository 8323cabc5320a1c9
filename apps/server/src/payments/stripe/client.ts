import type Stripe from 'stripe';
import { lazyModule } from '../../platform/lazy-module.js';

/** The SDK, loaded when a Stripe gateway is first used (platform/lazy-module.ts). */
export const loadStripe = lazyModule(async () => (await import('stripe')).default);

/**
 * One SDK client per call: configs change when an administrator saves a gateway, and a client
 * holds nothing worth keeping between payments. `apiBase` is Stripe's API in production and a
 * local simulator in tests; the SDK takes it as host, port and protocol.
 */
export async function stripeClient(secretKey: string, apiBase: string): Promise<Stripe> {
  const Sdk = await loadStripe();
  const base = new URL(apiBase);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return new Sdk(secretKey, {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    // A payer waits on `pay` and an administrator on `prepare`: fail within seconds, not the SDK's 80.
    timeout: 20_000,
    maxNetworkRetries: 1,
    telemetry: false,
  });
}

/**
 * A Stripe failure as a message an administrator can act on. Stripe's own messages never carry
 * the full key; authentication failures get our wording so the field to fix is named.
 */
export async function stripeFailure(action: string, error: unknown): Promise<Error> {
  const Stripe = await loadStripe();
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    return new Error(`${action}: Stripe rejected secret_key (check the key in Developers → API keys)`);
  }
  if (error instanceof Stripe.errors.StripePermissionError) {
    return new Error(
      `${action}: secret_key is not allowed to do this (a restricted key needs write access): ${error.message}`,
    );
  }
  if (error instanceof Stripe.errors.StripeError) return new Error(`${action}: ${error.message}`);
  return new Error(`${action}: ${error instanceof Error ? error.message : String(error)}`);
}
