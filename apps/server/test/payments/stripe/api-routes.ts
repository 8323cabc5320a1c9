import { randomBytes } from 'node:crypto';
import { type FormObject, type FormValue, objectField, stringField } from './form.js';

/** Stripe's REST calls the gateway makes, answered from the simulator's memory as Stripe would. */

export interface SimWebhookEndpoint {
  id: string;
  object: 'webhook_endpoint';
  api_version: string | null;
  application: null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Record<string, string>;
  /** Kept by the simulator; sent to the caller only in the answer to the create call, as Stripe does. */
  secret: string;
  status: 'enabled' | 'disabled';
  url: string;
}

export interface SimCheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  line_items: Array<{ quantity: number; currency: string; unit_amount: number; name: string }>;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  url: string | null;
}

export interface SimState {
  baseUrl: string;
  endpoints: Map<string, SimWebhookEndpoint>;
  sessions: Map<string, SimCheckoutSession>;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export const stripeId = (prefix: string): string =>
  `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = (): number => Math.floor(Date.now() / 1000);
const missing = (param: string) => new StripeApiError(400, `Missing required param: ${param}.`, param);
const invalid = (param: string, why: string) => new StripeApiError(400, `Invalid ${param}: ${why}`, param);

function rejectUnknown(form: FormObject, allowed: readonly string[]): void {
  const unknown = Object.keys(form).find((key) => !allowed.includes(key));
  if (unknown) throw new StripeApiError(400, `Received unknown parameter: ${unknown}`, unknown);
}

function metadataOf(value: FormValue | undefined, param = 'metadata'): Record<string, string> {
  if (value === undefined || value === '') return {};
  const fields = objectField(value);
  if (!fields) throw invalid(param, 'must be a hash');
  const entries = Object.entries(fields).map(([key, item]) => {
    if (typeof item !== 'string' || item.length > 500)
      throw invalid(`${param}[${key}]`, 'must be a string of at most 500 characters');
    return [key, item] as const;
  });
  return Object.fromEntries(entries);
}

function urlField(form: FormObject, param: string, required: boolean): string | null {
  const value = stringField(form[param]);
  if (value === undefined || value === '') {
    if (required) throw missing(param);
    return null;
  }
  if (!URL.canParse(value) || !/^https?:/.test(value)) throw invalid(param, 'Not a valid URL');
  return value;
}

const publicEndpoint = ({ secret: _secret, ...rest }: SimWebhookEndpoint) => rest;

export function createWebhookEndpoint(state: SimState, form: FormObject): ApiAnswer {
  rejectUnknown(form, ['url', 'enabled_events', 'api_version', 'description', 'metadata', 'connect']);
  const url = urlField(form, 'url', true) as string;
  const events = form.enabled_events;
  if (!Array.isArray(events) || events.length === 0) throw missing('enabled_events');
  if (!events.every((event) => typeof event === 'string' && /^(\*|[a-z_.]+)$/.test(event))) {
    throw invalid('enabled_events', 'must be an array of event type names');
  }
  const endpoint: SimWebhookEndpoint = {
    id: stripeId('we'),
    object: 'webhook_endpoint',
    api_version: stringField(form.api_version) ?? null,
    application: null,
    created: now(),
    description: stringField(form.description) ?? null,
    enabled_events: events as string[],
    livemode: false,
    metadata: metadataOf(form.metadata),
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    status: 'enabled',
    url,
  };
  state.endpoints.set(endpoint.id, endpoint);
  return { status: 200, body: endpoint };
}

export function listWebhookEndpoints(state: SimState, query: URLSearchParams): ApiAnswer {
  const limit = Number(query.get('limit') ?? '10');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit', 'must be an integer from 1 to 100');
  const all = [...state.endpoints.values()];
  const after = query.get('starting_after');
  const start = after ? all.findIndex((endpoint) => endpoint.id === after) + 1 : 0;
  if (after && start === 0) throw new StripeApiError(404, `No such webhook endpoint: '${after}'`, 'starting_after');
  const page = all.slice(start, start + limit);
  const body = {
    object: 'list',
    data: page.map(publicEndpoint),
    has_more: start + limit < all.length,
    url: '/v1/webhook_endpoints',
  };
  return { status: 200, body };
}

function existingEndpoint(state: SimState, id: string): SimWebhookEndpoint {
  const endpoint = state.endpoints.get(id);
  if (!endpoint) throw new StripeApiError(404, `No such webhook endpoint: '${id}'`, 'id');
  return endpoint;
}

export function updateWebhookEndpoint(state: SimState, id: string, form: FormObject): ApiAnswer {
  rejectUnknown(form, ['url', 'enabled_events', 'description', 'metadata', 'disabled']);
  const endpoint = existingEndpoint(state, id);
  if (form.metadata !== undefined) endpoint.metadata = { ...endpoint.metadata, ...metadataOf(form.metadata) };
  if (form.url !== undefined) endpoint.url = urlField(form, 'url', true) as string;
  if (Array.isArray(form.enabled_events)) endpoint.enabled_events = form.enabled_events as string[];
  if (form.disabled !== undefined) endpoint.status = form.disabled === 'true' ? 'disabled' : 'enabled';
  return { status: 200, body: publicEndpoint(endpoint) };
}

export function deleteWebhookEndpoint(state: SimState, id: string): ApiAnswer {
  existingEndpoint(state, id);
  state.endpoints.delete(id);
  return { status: 200, body: { id, object: 'webhook_endpoint', deleted: true } };
}

const SESSION_PARAMS = [
  'mode',
  'line_items',
  'success_url',
  'cancel_url',
  'client_reference_id',
  'metadata',
  'customer_email',
  'expires_at',
  'payment_method_types',
  'locale',
  'payment_intent_data',
] as const;

function lineItem(value: FormValue, index: number): SimCheckoutSession['line_items'][number] {
  const param = `line_items[${index}]`;
  const item = objectField(value);
  const priceData = objectField(item?.price_data);
  if (!item || !priceData) throw missing(`${param}[price_data]`);
  const quantity = Number(stringField(item.quantity) ?? 'NaN');
  if (!Number.isInteger(quantity) || quantity < 1) throw invalid(`${param}[quantity]`, 'must be a positive integer');
  const currency = stringField(priceData.currency) ?? '';
  if (!/^[a-z]{3}$/.test(currency))
    throw invalid(`${param}[price_data][currency]`, 'must be a lowercase ISO currency code');
  const amountText = stringField(priceData.unit_amount) ?? '';
  if (!/^\d+$/.test(amountText))
    throw invalid(`${param}[price_data][unit_amount]`, 'must be an integer in the smallest currency unit');
  const name = stringField(objectField(priceData.product_data)?.name) ?? '';
  if (!name.trim()) throw missing(`${param}[price_data][product_data][name]`);
  return { quantity, currency, unit_amount: Number(amountText), name };
}

function expiresAt(form: FormObject): number {
  const text = stringField(form.expires_at);
  if (text === undefined) return now() + 24 * 3600;
  const value = Number(text);
  // Stripe: between 30 minutes and 24 hours after creation.
  if (!Number.isInteger(value) || value < now() + 30 * 60 || value > now() + 24 * 3600) {
    throw invalid('expires_at', 'must be between 30 minutes and 24 hours from now');
  }
  return value;
}

export function createCheckoutSession(state: SimState, form: FormObject): ApiAnswer {
  rejectUnknown(form, SESSION_PARAMS);
  const mode = stringField(form.mode);
  if (!mode) throw missing('mode');
  if (!['payment', 'setup', 'subscription'].includes(mode))
    throw invalid('mode', 'must be payment, setup or subscription');
  if (!Array.isArray(form.line_items) || form.line_items.length === 0) throw missing('line_items');
  const items = form.line_items.map(lineItem);
  const currency = items[0]?.currency ?? '';
  if (items.some((item) => item.currency !== currency))
    throw invalid('line_items', 'all line items must use one currency');
  const email = stringField(form.customer_email);
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw invalid('customer_email', 'Invalid email address');
  const reference = stringField(form.client_reference_id);
  if (reference !== undefined && reference.length > 200)
    throw invalid('client_reference_id', 'must be at most 200 characters');
  const total = items.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0);
  const id = stripeId('cs_test');
  const session: SimCheckoutSession = {
    id,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    cancel_url: urlField(form, 'cancel_url', false),
    client_reference_id: reference ?? null,
    created: now(),
    currency,
    customer_email: email ?? null,
    expires_at: expiresAt(form),
    line_items: items,
    livemode: false,
    metadata: metadataOf(form.metadata),
    mode,
    payment_intent: null,
    payment_status: 'unpaid',
    status: 'open',
    success_url: urlField(form, 'success_url', true) as string,
    url: `${state.baseUrl}/c/pay/${id}`,
  };
  state.sessions.set(id, session);
  return { status: 200, body: sessionView(session) };
}

/** A session as the API returns it: line items are only listed through their own endpoint. */
export const sessionView = ({ line_items: _items, ...rest }: SimCheckoutSession) => rest;
