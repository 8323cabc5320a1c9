import { idParam, type TelegramBotStatus, telegramMenuBody, telegramMenuListQuery } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { TelegramBot } from '../../telegram/bot.js';
import { TelegramMenuRepository } from './repo.js';
import { TelegramMenuService } from './service.js';

/** The bot's custom menus and state (root only, like every /api/option route) and its webhook. */
export function telegramRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; database: DatabaseHandle; bot: TelegramBot },
): void {
  const { bot } = deps;
  const menus = new TelegramMenuService(new TelegramMenuRepository(deps.database));
  const root = { onRequest: deps.auth.requireRoot };

  app.get('/api/option/telegram/', root, async (request) =>
    ok(await menus.list(parseInput(telegramMenuListQuery, request.query, 'query'))),
  );
  app.post('/api/option/telegram/', root, async (request) =>
    ok(await menus.save(parseInput(telegramMenuBody, request.body))),
  );
  app.get('/api/option/telegram/status', root, async () => {
    const status: TelegramBotStatus = { status: bot.enabled, is_webhook: bot.isWebhook() };
    return ok(status);
  });
  app.put('/api/option/telegram/reload', root, async () => {
    await bot.reload();
    return ok();
  });
  app.get('/api/option/telegram/:id', root, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    return ok(await menus.get(id));
  });
  app.delete('/api/option/telegram/:id', root, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    await menus.delete(id);
    return ok();
  });

  // Telegram's deliveries: the path holds the bot token, the header the webhook secret.
  app.post('/api/telegram/:token', async (request) => {
    const { token } = request.params as { token: string };
    const secret = request.headers['x-telegram-bot-api-secret-token'];
    const outcome = await bot.handleWebhook(token, typeof secret === 'string' ? secret : undefined, request.body);
    if (outcome === 'not-found') throw AppError.notFound('Page not found');
    if (outcome === 'wrong-secret') throw AppError.unauthorized('the webhook secret token is wrong');
    if (outcome === 'bad-update') throw AppError.badRequest('body: not a Telegram update');
    return ok();
  });
}
