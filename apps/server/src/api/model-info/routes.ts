import { createOwnedByBody, idParam, modelInfoBody, updateModelInfoBody, updateOwnedByBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { ModelMetadataService } from './service.js';

/** Model owners (`/api/model_ownedby/`) and model information (`/api/model_info/`): public lists, admin edits. */
export function modelMetadataRoutes(app: FastifyInstance, deps: { auth: Auth; metadata: ModelMetadataService }): void {
  const { auth, metadata } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const pathId = (params: unknown) => parseInput(idParam, params, 'path').id;

  app.get('/api/model_ownedby/', async () => ok(await metadata.owners()));
  app.get('/api/model_ownedby/:id', admin, async (request) => ok(await metadata.owner(pathId(request.params))));
  app.post('/api/model_ownedby/', admin, async (request) =>
    ok(await metadata.createOwner(parseInput(createOwnedByBody, request.body))),
  );
  app.put('/api/model_ownedby/', admin, async (request) =>
    ok(await metadata.updateOwner(parseInput(updateOwnedByBody, request.body))),
  );
  app.delete('/api/model_ownedby/:id', admin, async (request) => {
    await metadata.deleteOwner(pathId(request.params));
    return ok();
  });

  app.get('/api/model_info/', async () => ok(await metadata.infos()));
  app.get('/api/model_info/:id', admin, async (request) => ok(await metadata.info(pathId(request.params))));
  app.post('/api/model_info/', admin, async (request) =>
    ok(await metadata.createInfo(parseInput(modelInfoBody, request.body))),
  );
  app.put('/api/model_info/', admin, async (request) =>
    ok(await metadata.updateInfo(parseInput(updateModelInfoBody, request.body))),
  );
  app.delete('/api/model_info/:id', admin, async (request) => {
    await metadata.deleteInfo(pathId(request.params));
    return ok();
  });
}
