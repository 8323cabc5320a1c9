import { createOwnedByBody, idParam, modelInfoBody, updateModelInfoBody, updateOwnedByBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { ModelMetadataService } from './service.js';

interface AdminEditedList {
  list(): Promise<unknown>;
  one(id: number): Promise<unknown>;
  create(body: unknown): Promise<unknown>;
  update(body: unknown): Promise<unknown>;
  remove(id: number): Promise<void>;
}

/** Model owners (`/api/model_ownedby/`) and model information (`/api/model_info/`): public lists, admin edits. */
export function modelMetadataRoutes(app: FastifyInstance, deps: { auth: Auth; metadata: ModelMetadataService }): void {
  const { auth, metadata } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const pathId = (params: unknown) => parseInput(idParam, params, 'path').id;

  // Both resources have the same five routes: the list is public, the rest is for admins.
  const resource = (base: string, handlers: AdminEditedList) => {
    app.get(base, async () => ok(await handlers.list()));
    app.get(`${base}:id`, admin, async (request) => ok(await handlers.one(pathId(request.params))));
    app.post(base, admin, async (request) => ok(await handlers.create(request.body)));
    app.put(base, admin, async (request) => ok(await handlers.update(request.body)));
    app.delete(`${base}:id`, admin, async (request) => {
      await handlers.remove(pathId(request.params));
      return ok();
    });
  };

  resource('/api/model_ownedby/', {
    list: () => metadata.owners(),
    one: (id) => metadata.owner(id),
    create: (body) => metadata.createOwner(parseInput(createOwnedByBody, body)),
    update: (body) => metadata.updateOwner(parseInput(updateOwnedByBody, body)),
    remove: (id) => metadata.deleteOwner(id),
  });
  resource('/api/model_info/', {
    list: () => metadata.infos(),
    one: (id) => metadata.info(id),
    create: (body) => metadata.createInfo(parseInput(modelInfoBody, body)),
    update: (body) => metadata.updateInfo(parseInput(updateModelInfoBody, body)),
    remove: (id) => metadata.deleteInfo(id),
  });
}
