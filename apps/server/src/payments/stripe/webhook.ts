import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { loadStripe } from './client.js';

/** A Checkout Session finished: paid (cards), or `unpaid` while a delayed method (bank debit) settles. */
export const CHECKOUT_COMPLETED = 'checkout.session.completed';
/** A delayed payment method's money arrived after the session completed `unpaid`. */
export const ASYNC_PAYMENT_SUCCEEDED = 'checkout.session.async_payment_succeeded';
/** A delayed payment method's payment failed (the debit bounced): the order will never be paid. */
export const ASYNC_PAYMENT_FAILED = 'checkout.session.async_payment_failed';
/** The events this gateway's endpoint receives; others reaching it are acknowledged and ignored. */
export const CHECKOUT_EVENTS = [CHECKOUT_COMPLETED, ASYNC_PAYMENT_SUCCEEDED, ASYNC_PAYMENT_FAILED] as const;

/**
 * Metadata key on endpoints we create: a short hash of the signing secret we stored. Stripe shows
 * a secret only when the endpoint is created, so this is how a later save proves that the secret
 * in our config belongs to the endpoint it finds, without ever sending the secret anywhere.
 */
export const SECRET_FINGERPRINT_KEY = 'one_hub_secret_sha256';

export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return url;
  }
};

/** Whether the endpoint already sends every event in CHECKOUT_EVENTS. */
function receivesCheckouts(endpoint: Stripe.WebhookEndpoint): boolean {
  const events = endpoint.enabled_events;
  return events.includes('*') || CHECKOUT_EVENTS.every((event) => events.includes(event));
}

/**
 * Makes sure exactly one enabled Stripe endpoint sends the Checkout events (CHECKOUT_EVENTS) to
 * `notifyUrl` and returns its signing secret.
 *
 * The notify path ends in this gateway's own uuid, so every endpoint on that path is this
 * gateway's. One is reused when it points at `notifyUrl` exactly, is enabled and carries the
 * fingerprint of `storedSecret`; if it lacks one of the events (an endpoint registered before the
 * delayed-payment events were handled) they are added to it, which keeps its secret. Every other
 * endpoint on the path (a secret we never saw, an old notify domain, a disabled one) is deleted,
 * and a new one is created when none was reusable: an endpoint whose secret we cannot know would
 * make every payment's callback fail.
 */
export async function ensureWebhookEndpoint(stripe: Stripe, notifyUrl: string, storedSecret: string): Promise<string> {
  const path = pathOf(notifyUrl);
  const ours: Stripe.WebhookEndpoint[] = [];
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
    if (pathOf(endpoint.url) === path) ours.push(endpoint);
  }
  const fingerprint = storedSecret ? secretFingerprint(storedSecret) : '';
  const reusable = ours.find(
    (endpoint) =>
      endpoint.url === notifyUrl &&
      endpoint.status === 'enabled' &&
      fingerprint !== '' &&
      endpoint.metadata?.[SECRET_FINGERPRINT_KEY] === fingerprint,
  );
  for (const endpoint of ours) {
    if (endpoint !== reusable) await stripe.webhookEndpoints.del(endpoint.id);
  }
  if (reusable) {
    if (!receivesCheckouts(reusable)) {
      // Stripe lists the endpoint's events as plain strings; they are event names it accepted.
      const kept = reusable.enabled_events as Stripe.WebhookEndpointUpdateParams.EnabledEvent[];
      await stripe.webhookEndpoints.update(reusable.id, {
        enabled_events: [...new Set([...kept, ...CHECKOUT_EVENTS])],
      });
    }
    return storedSecret;
  }

  const created = await stripe.webhookEndpoints.create({
    url: notifyUrl,
    enabled_events: [...CHECKOUT_EVENTS],
    // Events rendered in the version this SDK was built for, whatever the account's default is.
    api_version: (await loadStripe()).API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
    description: 'One Hub top-up payments',
  });
  if (!created.secret) throw new Error('Stripe created the webhook endpoint but returned no signing secret');
  await stripe.webhookEndpoints.update(created.id, {
    metadata: { [SECRET_FINGERPRINT_KEY]: secretFingerprint(created.secret) },
  });
  return created.secret;
}
