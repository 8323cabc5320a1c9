import { createHmac } from 'node:crypto';

/**
 * The `Stripe-Signature` header as Stripe computes it for a webhook delivery: `t` is the Unix time
 * of signing and `v1` the hex HMAC-SHA256 of `"<t>.<raw body>"` keyed with the endpoint's whole
 * signing secret (`whsec_…`). Written from Stripe's "verify manually" rules, independently of the
 * SDK, so a test can cross-check it against `Stripe.webhooks.generateTestHeaderString`.
 */
export function stripeSignatureHeader(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${digest}`;
}
