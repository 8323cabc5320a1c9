import type { OptionKey } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/reply.js';
import type { OptionService } from '../option/service.js';
import { type ServerFacts, siteInfo } from './service.js';

export function siteRoutes(app: FastifyInstance, deps: { options: OptionService; server: ServerFacts }): void {
  const { options } = deps;

  app.get('/api/status', async () => ok(siteInfo(options, deps.server)));

  const publicText: Array<[string, OptionKey]> = [
    ['/api/notice', 'Notice'],
    ['/api/about', 'About'],
    ['/api/home_page_content', 'HomePageContent'],
  ];
  for (const [path, key] of publicText) {
    app.get(path, async () => ok(options.get(key)));
  }
}
