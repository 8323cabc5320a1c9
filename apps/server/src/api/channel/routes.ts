import {
  channelBatchValueBody,
  channelIdsBody,
  channelListQuery,
  createChannelBody,
  idParam,
  updateChannelBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { ChannelHealthReader } from '../../domain/channel-health.js';
import { type Auth, currentUser } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { ChannelService } from './service.js';
import { channelTagRoutes } from './tag-routes.js';

/**
 * Channel administration. Channel tests, balance refreshes, the upstream model list and the SSE
 * check need the upstream executor and are registered with the relay, not here.
 */
export function channelRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; channels: ChannelService; health: ChannelHealthReader },
): void {
  const { auth, channels, health } = deps;
  const admin = { onRequest: auth.requireAdmin };

  app.get('/api/providers', admin, async () => ok(channels.providers()));

  // `key` may be a filter of this list; at warn level the request log never carries its query string.
  app.get('/api/channel/', { ...admin, logLevel: 'warn' }, async (request) =>
    ok(await channels.list(parseInput(channelListQuery, request.query, 'query'))),
  );
  // Ours, not the reference's: the console's getting-started list (channels, a tested one, the admin's own keys).
  app.get('/api/channel/setup', admin, async (request) => ok(await channels.repo.setupFacts(currentUser(request).id)));
  // Not enveloped: it is OpenAI's model-list shape.
  app.get('/api/channel/models', admin, async () => channels.models());
  // Ours (issue 34): each routed channel's health on the node that answers (docs/api.md).
  app.get('/api/channel/health', admin, async () => ok(health.view()));
  // Ours (issue 34): one channel's last hour by minute and its state changes, for the console's chart.
  app.get('/api/channel/health/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await channels.get(id);
    return ok(health.history(id));
  });
  app.get('/api/channel/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    return ok(await channels.get(id));
  });

  app.post('/api/channel/', admin, async (request) =>
    ok(await channels.create(parseInput(createChannelBody, request.body))),
  );
  app.put('/api/channel/', admin, async (request) =>
    ok(await channels.update(parseInput(updateChannelBody, request.body))),
  );

  app.put('/api/channel/batch/azure_api', admin, async (request) =>
    ok(await channels.setAzureApiVersion(parseInput(channelBatchValueBody, request.body)), 'updated'),
  );
  app.put('/api/channel/batch/del_model', admin, async (request) =>
    ok(await channels.removeModel(parseInput(channelBatchValueBody, request.body)), 'updated'),
  );
  app.delete('/api/channel/batch', admin, async (request) =>
    ok(await channels.deleteMany(parseInput(channelIdsBody, request.body).ids)),
  );
  app.delete('/api/channel/disabled', admin, async () => ok(await channels.deleteDisabled()));

  app.delete('/api/channel/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await channels.delete(id);
    return ok();
  });
  app.delete('/api/channel/:id/tag', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await channels.clearTag(id);
    return ok();
  });

  channelTagRoutes(app, { auth, tags: channels.tags });
}
