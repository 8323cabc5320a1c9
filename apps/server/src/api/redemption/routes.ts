import {
  createRedemptionBody,
  idParam,
  redemptionListQuery,
  redemptionStatusBody,
  redemptionUpdateQuery,
  topUpBody,
  updateRedemptionBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { RedemptionService } from './service.js';

/** Administrators manage redemption codes; any signed-in user redeems one with `POST /api/user/topup`. */
export function redemptionRoutes(app: FastifyInstance, deps: { auth: Auth; redemptions: RedemptionService }): void {
  const { auth, redemptions } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const user = { onRequest: auth.requireUser };

  app.get('/api/redemption/', admin, async (request) =>
    ok(await redemptions.list(currentUser(request), parseInput(redemptionListQuery, request.query, 'query'))),
  );

  app.get('/api/redemption/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    return ok(await redemptions.get(currentUser(request), id));
  });

  app.post('/api/redemption/', admin, async (request) =>
    ok(await redemptions.create(currentUser(request), parseInput(createRedemptionBody, request.body))),
  );

  app.put('/api/redemption/', admin, async (request) => {
    const { status_only: statusOnly } = parseInput(redemptionUpdateQuery, request.query, 'query');
    const caller = currentUser(request);
    if (statusOnly) return ok(await redemptions.setStatus(caller, parseInput(redemptionStatusBody, request.body)));
    return ok(await redemptions.update(caller, parseInput(updateRedemptionBody, request.body)));
  });

  app.delete('/api/redemption/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await redemptions.delete(currentUser(request), id);
    return ok();
  });

  app.post('/api/user/topup', user, async (request) => {
    const { key } = parseInput(topUpBody, request.body);
    return ok(await redemptions.redeem(currentUser(request), key, request.ip));
  });
}
