import {
  createOrderBody,
  idParam,
  orderListQuery,
  orderQuoteQuery,
  orderStatusQuery,
  paymentGatewayBody,
  paymentGatewayListQuery,
  updatePaymentGatewayBody,
} from '@one-hub/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { GatewayCallback } from '../../payments/gateway.js';
import type { GatewayActor, GatewayService } from './gateway-service.js';
import type { NotifyService } from './notify-service.js';
import type { OrderService } from './order-service.js';

export interface PaymentRouteDeps {
  auth: Auth;
  gateways: GatewayService;
  orders: OrderService;
  notify: NotifyService;
}

/**
 * Vendors' callbacks come from callers not yet known (the signature is checked once the body is
 * read), so they get the smallest limit that fits them all: Epay's and Alipay's forms and WeChat
 * Pay's encrypted resource are 1-3 KiB, but a Stripe event carries the whole checkout session and
 * its metadata (several KiB, more with line items), and Stripe signs the exact bytes.
 */
const NOTIFY_BODY_LIMIT = 64 * 1024;

export const uuidParam = z.object({ uuid: z.string().max(64, 'uuid is too long') });

/** Gateways and orders (reference §1.15, §4.10): administrators configure, users pay, vendors call back. */
export async function paymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): Promise<void> {
  const { auth, gateways, orders } = deps;
  const admin = { onRequest: auth.requireAdmin };
  // Creating or deleting a gateway is root's: its keys decide which payment callbacks credit balances.
  const root = { onRequest: auth.requireRoot };
  const user = { onRequest: auth.requireUser };

  app.get('/api/payment/', admin, async (request) =>
    ok(await gateways.list(parseInput(paymentGatewayListQuery, request.query, 'query'))),
  );
  app.get('/api/payment/order', admin, async (request) =>
    ok(await orders.list(currentUser(request), parseInput(orderListQuery, request.query, 'query'))),
  );
  app.get('/api/payment/:id', admin, async (request) =>
    ok(await gateways.get(parseInput(idParam, request.params, 'path').id)),
  );
  app.post('/api/payment/', root, async (request, reply) => {
    const created = await gateways.create(parseInput(paymentGatewayBody, request.body), actorOf(request));
    return reply.code(201).send(ok(created));
  });
  app.put('/api/payment/', admin, async (request) =>
    ok(await gateways.update(parseInput(updatePaymentGatewayBody, request.body), actorOf(request))),
  );
  app.delete('/api/payment/:id', root, async (request) => {
    await gateways.delete(parseInput(idParam, request.params, 'path').id, actorOf(request));
    return ok();
  });

  app.get('/api/user/payment', user, async () => ok(await gateways.forUsers()));
  app.get('/api/user/order/quote', user, async (request) => {
    const { uuid, amount } = parseInput(orderQuoteQuery, request.query, 'query');
    return ok(await orders.quote(uuid, amount));
  });
  app.post('/api/user/order', user, async (request) =>
    ok(await orders.create(currentUser(request), parseInput(createOrderBody, request.body), request.ip)),
  );
  // The reference's answer: success only once paid; a waiting order is `success:false` with 200 (the console polls it).
  app.get('/api/user/order/status', user, async (request) => {
    const { trade_no: tradeNo } = parseInput(orderStatusQuery, request.query, 'query');
    const progress = await orders.progress(currentUser(request), tradeNo);
    return progress.state === 'success' ? ok() : { success: false, message: 'pending' };
  });

  await app.register(async (scope) => notifyRoute(scope, deps.notify));
}

/**
 * `ANY /api/payment/notify/:uuid`, public. In its own scope every content type is read as raw
 * bytes: Stripe and WeChat Pay sign the body exactly as sent, so it must not be parsed first.
 */
function notifyRoute(scope: FastifyInstance, notify: NotifyService): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  scope.all('/api/payment/notify/:uuid', { bodyLimit: NOTIFY_BODY_LIMIT }, async (request, reply) => {
    const { uuid } = parseInput(uuidParam, request.params, 'path');
    const answer = await notify.handle(uuid, callbackOf(request), request.ip);
    if (!answer) return reply.code(404).send({ success: false, message: 'payment not found' });
    return reply.code(answer.status).type(answer.contentType).send(answer.body);
  });
}

function actorOf(request: FastifyRequest): GatewayActor {
  const { id, username, role } = currentUser(request);
  return { id, username, role, ip: request.ip };
}

function callbackOf(request: FastifyRequest): GatewayCallback {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[name] = first;
  }
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: request.method,
    query,
    headers,
    rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
  };
}
