import { PAYMENT_CURRENCIES, type PaymentCurrency } from '@one-hub/contracts';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { GatewayCallback, GatewayCallbackResult } from '../gateway.js';
import { ASYNC_PAYMENT_FAILED, ASYNC_PAYMENT_SUCCEEDED, CHECKOUT_COMPLETED } from './webhook.js';

/** Only the fields a Checkout Session event must carry for us to act on it. */
const checkoutSession = z.object({
  id: z.string(),
  client_reference_id: z.string().min(1),
  payment_status: z.string(),
  amount_total: z.number().int().nonnegative(),
  currency: z.string(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() }), z.null()]).optional(),
});

/** The Checkout Session `metadata` key naming the gateway (its uuid) that created the session. */
export const GATEWAY_METADATA_KEY = 'one_hub_gateway';

/** Reads the gateway tag before anything else: a session of another gateway or app is not ours to judge. */
const taggedSession = z.object({
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

const eventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: z.unknown() }),
});

/** The first line of an SDK message: its later lines are advice for developers, not a reason. */
const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Reads a Stripe webhook delivery. The signature is checked by the official SDK
 * (`constructEvent`: HMAC-SHA256 of `t.payload` with the endpoint secret, timestamp at most five
 * minutes old, so a captured delivery cannot be replayed later). A payment is a
 * `checkout.session.completed` whose `payment_status` is `paid` (cards), or the
 * `checkout.session.async_payment_succeeded` that follows a session completed `unpaid` (a delayed
 * method such as a bank debit); `checkout.session.async_payment_failed` fails the order. Every
 * other genuine event, the `unpaid` completion included, is acknowledged and changes nothing.
 *
 * Stripe sends every event of the account to every webhook endpoint on it, so a session is only
 * read when its `metadata.one_hub_gateway` is `gatewayUuid`: a session of another gateway on the
 * same account, or of another app (no tag), is acknowledged as `ignored`, so Stripe neither
 * retries it nor disables this endpoint.
 */
export function readCheckoutEvent(
  sdk: typeof Stripe,
  callback: GatewayCallback,
  webhookSecret: string,
  gatewayUuid: string,
): GatewayCallbackResult {
  if (!webhookSecret)
    return { kind: 'rejected', reason: 'webhook_secret is empty: save the gateway again to register the webhook' };
  const signature = callback.headers['stripe-signature'];
  if (!signature) return { kind: 'rejected', reason: 'no Stripe-Signature header' };
  let event: unknown;
  try {
    event = sdk.webhooks.constructEvent(callback.rawBody, signature, webhookSecret);
  } catch (error) {
    return { kind: 'rejected', reason: `signature check failed: ${firstLine(error)}` };
  }
  const envelope = eventEnvelope.safeParse(event);
  if (!envelope.success) return { kind: 'rejected', reason: 'the body is not a Stripe event' };
  const { type } = envelope.data;
  if (type !== CHECKOUT_COMPLETED && type !== ASYNC_PAYMENT_SUCCEEDED && type !== ASYNC_PAYMENT_FAILED) {
    return { kind: 'ignored', reason: `event type ${type}` };
  }

  const tag = taggedSession.safeParse(envelope.data.data.object);
  const owner = tag.success ? tag.data.metadata?.[GATEWAY_METADATA_KEY] : undefined;
  if (owner !== gatewayUuid) {
    return {
      kind: 'ignored',
      reason:
        typeof owner === 'string' ? `${type} for another gateway (${owner})` : `${type} not made by a One Hub gateway`,
    };
  }

  const session = checkoutSession.safeParse(envelope.data.data.object);
  if (!session.success) {
    const field = session.error.issues[0]?.path.join('.') || 'object';
    return { kind: 'rejected', reason: `checkout session without a valid ${field}` };
  }
  const { client_reference_id: tradeNo, payment_status, amount_total, payment_intent, id } = session.data;
  // A session paid in full by a discount has no PaymentIntent; its own id still names the payment.
  const gatewayNo = typeof payment_intent === 'string' ? payment_intent : (payment_intent?.id ?? id);
  if (type === ASYNC_PAYMENT_FAILED) {
    return { kind: 'failed', tradeNo, gatewayNo, reason: 'the delayed payment failed at Stripe' };
  }
  // completed + unpaid: a delayed method is still settling; its async_payment_* event decides.
  if (payment_status !== 'paid') return { kind: 'ignored', reason: `${type} with payment_status ${payment_status}` };
  const currency = session.data.currency.toUpperCase();
  if (!(PAYMENT_CURRENCIES as readonly string[]).includes(currency)) {
    return { kind: 'rejected', reason: `currency ${currency} is not one this gateway charges in` };
  }
  return { kind: 'paid', tradeNo, gatewayNo, paidCents: amount_total, currency: currency as PaymentCurrency };
}
