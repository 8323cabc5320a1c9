import {
  channelTagParam,
  channelTagPriorityBody,
  channelTagStatusParam,
  updateChannelTagBody,
} from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { ChannelTagService } from './tags.js';

export function channelTagRoutes(app: FastifyInstance, deps: { auth: Auth; tags: ChannelTagService }): void {
  const { auth, tags } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const tagOf = (params: unknown) => parseInput(channelTagParam, params, 'path').tag;

  app.get('/api/channel_tag/_all', admin, async () => ok(await tags.all()));
  app.get('/api/channel_tag/:tag/list', admin, async (request) => ok(await tags.list(tagOf(request.params))));
  app.get('/api/channel_tag/:tag', admin, async (request) => ok(await tags.get(tagOf(request.params))));
  app.put('/api/channel_tag/:tag', admin, async (request) => {
    const tag = tagOf(request.params);
    return ok(await tags.update(tag, parseInput(updateChannelTagBody, request.body)));
  });
  app.delete('/api/channel_tag/:tag', admin, async (request) => ok(await tags.delete(tagOf(request.params))));
  app.delete('/api/channel_tag/:tag/disabled', admin, async (request) =>
    ok(await tags.deleteDisabled(tagOf(request.params))),
  );
  app.put('/api/channel_tag/:tag/priority', admin, async (request) => {
    const tag = tagOf(request.params);
    return ok(await tags.setPriority(tag, parseInput(channelTagPriorityBody, request.body).value));
  });
  app.put('/api/channel_tag/:tag/status/:status', admin, async (request) => {
    const { tag, status } = parseInput(channelTagStatusParam, request.params, 'path');
    return ok(await tags.setStatus(tag, status));
  });
}
