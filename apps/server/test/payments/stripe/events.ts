import { randomBytes } from 'node:crypto';
import { type SimState, type SimWebhookEndpoint, sessionView, stripeId } from './api-routes.js';
import { stripeSignatureHeader } from './signing.js';

/** The version a Stripe account renders events in when its endpoint names none. */
const ACCOUNT_API_VERSION = '2024-09-30.acacia';

export interface StripeEvent {
  id: string;
  object: 'event';
  created: number;
  data: { object: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
}

/** One POST of an event to a webhook endpoint, and what the receiver answered. */
export interface Delivery {
  endpointId: string;
  url: string;
  eventId: string;
  eventType: string;
  payload: string;
  signature: string;
  status: number;
  body: string;
}

export interface SendOptions {
  /** Sign with this secret instead of the endpoint's (a forger's guess). */
  secret?: string;
  /** Signing time in Unix seconds (an old one is a replay). */
  timestamp?: number;
  /** Send these bytes but sign the genuine payload (tampering in transit). */
  tamper?: (payload: string) => string;
}

export interface EventSender {
  events: StripeEvent[];
  deliveries: Delivery[];
  /** The payer paid: session complete, `checkout.session.completed` signed and delivered. `amountTotal` makes it an under-payment. */
  pay(sessionId: string, overrides?: { amountTotal?: number; paymentStatus?: 'paid' | 'unpaid' }): Promise<Delivery[]>;
  /**
   * The payer chose a delayed method (a bank debit): the session completes `unpaid` and
   * `checkout.session.completed` says so; `settleDelayed` later reports how the debit ended.
   */
  payDelayed(sessionId: string): Promise<Delivery[]>;
  /**
   * The delayed payment settled: `succeeded` marks the session paid and sends
   * `checkout.session.async_payment_succeeded`; `failed` leaves it unpaid and sends
   * `checkout.session.async_payment_failed`, as Stripe does.
   */
  settleDelayed(sessionId: string, outcome: 'succeeded' | 'failed'): Promise<Delivery[]>;
  /** A completed-session event for `sessionId` signed with a secret that is not the endpoint's. */
  sendForged(sessionId: string, options?: SendOptions): Promise<Delivery[]>;
  /** Stripe's retry of an event already sent: same body, freshly signed. */
  resend(eventId: string, options?: SendOptions): Promise<Delivery[]>;
  /** Any other genuine event, e.g. `payment_intent.created`. */
  sendEvent(type: string, object: Record<string, unknown>, options?: SendOptions): Promise<Delivery[]>;
}

function subscribed(endpoint: SimWebhookEndpoint, type: string): boolean {
  return (
    endpoint.status === 'enabled' && (endpoint.enabled_events.includes(type) || endpoint.enabled_events.includes('*'))
  );
}

export function createEventSender(state: SimState): EventSender {
  const events: StripeEvent[] = [];
  const deliveries: Delivery[] = [];
  /** Sessions completed with a delayed method whose outcome Stripe has not reported yet. */
  const delayed = new Set<string>();

  const buildEvent = (type: string, object: Record<string, unknown>): StripeEvent => {
    const event: StripeEvent = {
      id: stripeId('evt'),
      object: 'event',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    return event;
  };

  async function deliver(event: StripeEvent, options: SendOptions = {}): Promise<Delivery[]> {
    const sent: Delivery[] = [];
    for (const endpoint of state.endpoints.values()) {
      if (!subscribed(endpoint, event.type)) continue;
      // Stripe renders each event in the endpoint's API version and sends indented JSON.
      const payload = JSON.stringify({ ...event, api_version: endpoint.api_version ?? ACCOUNT_API_VERSION }, null, 2);
      const signature = stripeSignatureHeader(payload, options.secret ?? endpoint.secret, options.timestamp);
      const body = options.tamper ? options.tamper(payload) : payload;
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body,
        redirect: 'manual',
      });
      const delivery = {
        endpointId: endpoint.id,
        url: endpoint.url,
        eventId: event.id,
        eventType: event.type,
        payload: body,
        signature,
        status: response.status,
        body: await response.text(),
      };
      deliveries.push(delivery);
      sent.push(delivery);
    }
    return sent;
  }

  const sessionOrThrow = (sessionId: string) => {
    const session = state.sessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    return session;
  };

  return {
    events,
    deliveries,
    async pay(sessionId, overrides = {}) {
      const session = sessionOrThrow(sessionId);
      session.status = 'complete';
      session.payment_status = overrides.paymentStatus ?? 'paid';
      session.payment_intent ??= stripeId('pi');
      if (overrides.amountTotal !== undefined) session.amount_total = overrides.amountTotal;
      return deliver(buildEvent('checkout.session.completed', sessionView(session)));
    },
    async payDelayed(sessionId) {
      const session = sessionOrThrow(sessionId);
      if (session.status !== 'open') throw new Error(`checkout session ${sessionId} is ${session.status}`);
      session.status = 'complete';
      session.payment_status = 'unpaid';
      session.payment_intent ??= stripeId('pi');
      delayed.add(sessionId);
      return deliver(buildEvent('checkout.session.completed', sessionView(session)));
    },
    async settleDelayed(sessionId, outcome) {
      const session = sessionOrThrow(sessionId);
      if (!delayed.delete(sessionId)) throw new Error(`checkout session ${sessionId} has no delayed payment to settle`);
      if (outcome === 'succeeded') session.payment_status = 'paid';
      return deliver(buildEvent(`checkout.session.async_payment_${outcome}`, sessionView(session)));
    },
    async sendForged(sessionId, options = {}) {
      const session = {
        ...sessionView(sessionOrThrow(sessionId)),
        status: 'complete',
        payment_status: 'paid',
        payment_intent: stripeId('pi'),
      };
      const event = buildEvent('checkout.session.completed', session);
      return deliver(event, { secret: `whsec_${randomBytes(24).toString('base64url')}`, ...options });
    },
    async resend(eventId, options) {
      const event = events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return deliver(event, options);
    },
    async sendEvent(type, object, options) {
      return deliver(buildEvent(type, object), options);
    },
  };
}
