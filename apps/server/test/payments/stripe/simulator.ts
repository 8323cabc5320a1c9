import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ApiAnswer,
  createCheckoutSession,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  type SimCheckoutSession,
  type SimState,
  type SimWebhookEndpoint,
  StripeApiError,
  updateWebhookEndpoint,
} from './api-routes.js';
import { checkoutPage } from './checkout-page.js';
import { createEventSender, type EventSender } from './events.js';
import { decodeStripeForm, type FormObject } from './form.js';

/** One call the simulator received on its REST API, with what it answered. */
export interface SimRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  form: FormObject;
  status: number;
}

export interface StripeSimulator extends EventSender {
  /** For `GatewayEndpoints.stripeApiBase`. */
  baseUrl: string;
  /** The only API key the simulator accepts (`Authorization: Bearer …`). */
  secretKey: string;
  requests: SimRequest[];
  webhookEndpoints: Map<string, SimWebhookEndpoint>;
  sessions: Map<string, SimCheckoutSession>;
  /** Seeds an endpoint as if made in the dashboard or by another program (its secret unknown to us). */
  addWebhookEndpoint(fields: Partial<SimWebhookEndpoint> & { url: string }): SimWebhookEndpoint;
  close(): Promise<void>;
}

/** The one item a test expects, failing loudly when there are none or several. */
export function only<T>(items: Iterable<T>): T {
  const all = [...items];
  if (all.length !== 1) throw new Error(`expected exactly one item, found ${all.length}`);
  return all[0] as T;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, contentType: string, body: string, headers = {}): void {
  response.writeHead(status, {
    'content-type': contentType,
    'request-id': `req_${randomBytes(6).toString('hex')}`,
    ...headers,
  });
  response.end(body);
}

function route(state: SimState, method: string, path: string, query: URLSearchParams, form: FormObject): ApiAnswer {
  const endpointId = /^\/v1\/webhook_endpoints\/([\w-]+)$/.exec(path)?.[1];
  if (path === '/v1/webhook_endpoints' && method === 'POST') return createWebhookEndpoint(state, form);
  if (path === '/v1/webhook_endpoints' && method === 'GET') return listWebhookEndpoints(state, query);
  if (endpointId && method === 'POST') return updateWebhookEndpoint(state, endpointId, form);
  if (endpointId && method === 'DELETE') return deleteWebhookEndpoint(state, endpointId);
  if (path === '/v1/checkout/sessions' && method === 'POST') return createCheckoutSession(state, form);
  throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
}

/** Stripe answers a missing or wrong key with 401 before looking at anything else. */
function authorizationError(header: string | undefined, secretKey: string): StripeApiError | undefined {
  if (!header) return new StripeApiError(401, 'You did not provide an API key.');
  if (header !== `Bearer ${secretKey}`) {
    const given = header.replace(/^Bearer\s+/i, '');
    return new StripeApiError(401, `Invalid API Key provided: ${given.slice(0, 8)}****${given.slice(-4)}`);
  }
  return undefined;
}

/**
 * A local server speaking the part of Stripe's REST API the gateway uses (form-encoded requests,
 * Bearer secret key, Stripe's error envelope), a hosted-checkout stand-in page, and signed webhook
 * deliveries. Every call is recorded in `requests`.
 */
export async function startStripeSimulator(options: { secretKey?: string } = {}): Promise<StripeSimulator> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const state: SimState = { baseUrl: '', endpoints: new Map(), sessions: new Map() };
  const requests: SimRequest[] = [];
  const events = createEventSender(state);

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const record: SimRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      form: {},
      status: 0,
    };
    requests.push(record);
    let answer: ApiAnswer;
    try {
      const denied = authorizationError(request.headers.authorization, secretKey);
      if (denied) throw denied;
      if (
        method === 'POST' &&
        !String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')
      ) {
        throw new StripeApiError(400, 'Requests must be application/x-www-form-urlencoded.');
      }
      record.form = decodeStripeForm(method === 'GET' ? '' : await readBody(request));
      answer = route(state, method, url.pathname, url.searchParams, record.form);
    } catch (error) {
      const status = error instanceof StripeApiError ? error.status : 400;
      const param = error instanceof StripeApiError ? error.param : undefined;
      answer = { status, body: { error: { type: 'invalid_request_error', message: (error as Error).message, param } } };
    }
    record.status = answer.status;
    send(response, answer.status, 'application/json', JSON.stringify(answer.body));
  }

  async function handleCheckout(request: IncomingMessage, response: ServerResponse, sessionId: string): Promise<void> {
    const session = state.sessions.get(sessionId);
    if (!session) return send(response, 404, 'text/plain', 'No such checkout session');
    if (request.method === 'POST' && session.status === 'open') {
      const method = new URLSearchParams(await readBody(request)).get('method');
      await (method === 'bank_debit' ? events.payDelayed(sessionId) : events.pay(sessionId));
      return send(response, 303, 'text/plain', '', { location: session.success_url });
    }
    send(response, 200, 'text/html; charset=utf-8', checkoutPage(session));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://simulator.local');
    const checkoutId = /^\/c\/pay\/([\w-]+)$/.exec(url.pathname)?.[1];
    const work = checkoutId ? handleCheckout(request, response, checkoutId) : handleApi(request, response, url);
    work.catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ...events,
    baseUrl: state.baseUrl,
    secretKey,
    requests,
    webhookEndpoints: state.endpoints,
    sessions: state.sessions,
    addWebhookEndpoint(fields) {
      const created = createWebhookEndpoint(state, { url: fields.url, enabled_events: ['checkout.session.completed'] });
      const endpoint = Object.assign(created.body as SimWebhookEndpoint, fields);
      return endpoint;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
