import { invoiceDetailQuery, invoiceListQuery, invoiceMonthParam } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { InvoiceService } from './service.js';

/** GET /api/user/invoice, /api/user/invoice/detail (the user's own); POST /api/option/invoice/{gen,update}/:time (root). */
export function invoiceRoutes(app: FastifyInstance, deps: { auth: Auth; invoices: InvoiceService }): void {
  const { auth, invoices } = deps;
  const user = { onRequest: auth.requireUser };
  const root = { onRequest: auth.requireRoot };

  app.get('/api/user/invoice', user, async (request) =>
    ok(await invoices.months(currentUser(request).id, parseInput(invoiceListQuery, request.query))),
  );
  app.get('/api/user/invoice/detail', user, async (request) => {
    const { date } = parseInput(invoiceDetailQuery, request.query);
    return ok(await invoices.detail(currentUser(request).id, date));
  });
  app.post('/api/option/invoice/gen/:time', root, async (request) =>
    ok(await invoices.build(parseInput(invoiceMonthParam, request.params).time, false)),
  );
  app.post('/api/option/invoice/update/:time', root, async (request) =>
    ok(await invoices.build(parseInput(invoiceMonthParam, request.params).time, true)),
  );
}
