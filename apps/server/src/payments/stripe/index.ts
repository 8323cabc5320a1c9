import { ORDER_PENDING_LIFETIME_SECONDS, PaymentAction } from '@one-hub/contracts';
import { z } from 'zod';
import type { GatewayAnswer, GatewayEndpoints, PaymentGateway } from '../gateway.js';
import { loadStripe, stripeClient, stripeFailure } from './client.js';
import { GATEWAY_METADATA_KEY, readCheckoutEvent } from './verify.js';
import { ensureWebhookEndpoint } from './webhook.js';

const stripeConfig = z.object({
  secret_key: z
    .string('secret_key is required')
    .trim()
    .min(1, 'secret_key is required')
    .max(255, 'secret_key must be at most 255 characters')
    .refine((value) => /^(sk|rk)_(live|test)_\S+$/.test(value), {
      message: 'secret_key must be a Stripe secret key such as sk_live_… or sk_test_… (or a restricted rk_… key)',
    }),
  // Filled by `prepare` from the webhook endpoint Stripe creates; an administrator never types it.
  webhook_secret: z.string('webhook_secret must be a string').trim().max(255).default(''),
});
export type StripeConfig = z.infer<typeof stripeConfig>;

/** Stripe always has a `prepare`: saving the gateway is what registers its webhook. */
export type StripeGateway = PaymentGateway<StripeConfig> & Required<Pick<PaymentGateway<StripeConfig>, 'prepare'>>;

/**
 * Stripe lets a Checkout Session live 30 minutes to 24 hours. End it before the order service
 * closes the pending order, so nobody can pay for an order that will no longer be credited.
 */
const CHECKOUT_LIFETIME_SECONDS = ORDER_PENDING_LIFETIME_SECONDS - 10 * 60;

/** Stripe refuses a malformed customer_email; without one its page simply asks the payer. */
const usableEmail = (email: string): string | undefined =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined;

const json = (status: number, body: unknown): GatewayAnswer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

/**
 * Stripe: the payer is sent to a hosted Checkout Session; Stripe reports the payment to a webhook
 * endpoint this gateway registers when the administrator saves it, signing each delivery with
 * that endpoint's secret. Amounts travel in minor units (cents, fen) both ways.
 */
export function createStripeGateway(endpoints: Pick<GatewayEndpoints, 'stripeApiBase'>): StripeGateway {
  return {
    type: 'stripe',
    configSchema: stripeConfig as z.ZodType<StripeConfig>,
    secretFields: ['secret_key', 'webhook_secret'],

    async prepare(config, { notifyUrl }) {
      const stripe = await stripeClient(config.secret_key, endpoints.stripeApiBase);
      try {
        const webhookSecret = await ensureWebhookEndpoint(stripe, notifyUrl, config.webhook_secret);
        return { ...config, webhook_secret: webhookSecret };
      } catch (error) {
        throw await stripeFailure('Could not register the Stripe webhook', error);
      }
    },

    async pay(config, order) {
      const stripe = await stripeClient(config.secret_key, endpoints.stripeApiBase);
      let url: string | null;
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: order.currency.toLowerCase(),
                unit_amount: order.amountCents,
                product_data: { name: order.subject },
              },
            },
          ],
          success_url: order.returnUrl,
          cancel_url: order.returnUrl,
          client_reference_id: order.tradeNo,
          // Stripe sends every event of the account to every endpoint: the tag tells this gateway's apart.
          metadata: { user_id: String(order.user.id), [GATEWAY_METADATA_KEY]: order.gatewayUuid },
          customer_email: usableEmail(order.user.email),
          expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_LIFETIME_SECONDS,
        });
        url = session.url;
      } catch (error) {
        throw await stripeFailure('Stripe refused the checkout session', error);
      }
      if (!url) throw new Error('Stripe returned a checkout session without a payment page URL');
      return { type: PaymentAction.openUrl, url, method: 'GET' };
    },

    async verify(config, callback, context) {
      return readCheckoutEvent(await loadStripe(), callback, config.webhook_secret, context.uuid);
    },

    answer(outcome) {
      // Stripe only looks at the status: 2xx stops its retries, anything else is retried for days.
      return outcome === 'ok' ? json(200, { received: true }) : json(400, { received: false });
    },
  };
}
