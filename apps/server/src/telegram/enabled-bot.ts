import { timingSafeEqual } from 'node:crypto';
import { TELEGRAM_BUILTIN_COMMANDS } from '@one-hub/contracts';
import { Bot, GrammyError, HttpError } from 'grammy';
import type { Update } from 'grammy/types';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { TelegramMenuRepository } from '../api/telegram/repo.js';
import type { TelegramBotConfig } from '../config.js';
import { AppError } from '../platform/errors.js';
import { TelegramAccounts } from './accounts.js';
import { type TelegramBot, type TelegramBotDeps, webhookModeOf } from './bot-contract.js';
import { BUILTIN_DESCRIPTIONS, installCommands } from './commands.js';
import { Conversations } from './conversation.js';

/** The bot itself, with grammy: loaded by bot.ts when TG_BOT_API_KEY is set and the bot is first used. */
export function enabledBot(config: TelegramBotConfig, deps: TelegramBotDeps): TelegramBot {
  const bot = buildBot(config, deps);
  const log = deps.logger;
  let polling: Promise<void> | undefined;
  let stopped = false;

  const webhookMode = () => webhookModeOf(config, deps);

  async function applyMode(): Promise<void> {
    if (!bot.isInited()) await bot.init();
    if (stopped) return;
    if (webhookMode()) {
      if (polling) await bot.stop();
      polling = undefined;
      const base = deps.services.options.get('ServerAddress').replace(/\/+$/, '');
      await bot.api.setWebhook(`${base}/api/telegram/${config.token}`, { secret_token: config.webhookSecret });
      log.info({ bot: bot.botInfo.username }, 'Telegram bot on (webhook)');
      return;
    }
    if (polling) return;
    // bot.start() removes any webhook itself, then polls until bot.stop().
    polling = bot.start({ drop_pending_updates: false }).catch((error: unknown) => {
      polling = undefined;
      if (!stopped) log.error({ error: describeError(error) }, 'Telegram bot polling stopped');
    });
    log.info({ bot: bot.botInfo.username }, 'Telegram bot on (long polling)');
  }

  async function publishCommands(): Promise<void> {
    const menus = await new TelegramMenuRepository(deps.services.database).all();
    const commands = [
      ...TELEGRAM_BUILTIN_COMMANDS.map((command) => ({ command, description: BUILTIN_DESCRIPTIONS[command] })),
      ...menus.map((menu) => ({ command: menu.command, description: menu.description || menu.command })),
    ];
    await bot.api.setMyCommands(commands.slice(0, 100));
  }

  return {
    enabled: true,
    isWebhook: webhookMode,
    username: () => (bot.isInited() ? bot.botInfo.username : ''),
    async start() {
      try {
        if (deps.nodeType !== 'master') return void (await bot.init());
        await applyMode();
        await publishCommands();
      } catch (error) {
        log.error(
          { error: describeError(error) },
          'the Telegram bot could not start; PUT /api/option/telegram/reload retries',
        );
      }
    },
    async stop() {
      stopped = true;
      if (polling) await bot.stop().catch(() => undefined);
      await polling;
      polling = undefined;
    },
    async reload() {
      try {
        if (deps.nodeType === 'master') await applyMode();
        await publishCommands();
      } catch (error) {
        throw new AppError('upstream_error', `the Telegram Bot API refused: ${describeError(error)}`);
      }
    },
    async handleWebhook(token, secret, update) {
      if (!webhookMode() || !sameSecret(token, config.token)) return 'not-found';
      if (secret === undefined || !sameSecret(secret, config.webhookSecret ?? '')) return 'wrong-secret';
      if (!isUpdate(update)) return 'bad-update';
      if (!bot.isInited()) await bot.init();
      await bot.handleUpdate(update);
      return 'handled';
    },
  };
}

function buildBot(config: TelegramBotConfig, deps: TelegramBotDeps): Bot {
  const { services, logger } = deps;
  const bot = new Bot(config.token, {
    client: {
      apiRoot: config.apiRoot.replace(/\/+$/, ''),
      ...(config.proxy ? { baseFetchConfig: { agent: new HttpsProxyAgent(config.proxy), compress: true } } : {}),
    },
  });
  installCommands(bot, {
    accounts: new TelegramAccounts(services.database, services.userRepository, services.users),
    conversations: new Conversations(services.cache),
    menus: new TelegramMenuRepository(services.database),
    options: services.options,
    tokens: services.tokens,
    redemptions: services.redemptions,
    logger,
  });
  // Only a description: an update's text may hold an access token or a redemption code.
  bot.catch((error) => logger.warn({ error: describeError(error.error) }, 'the Telegram bot failed to answer'));
  return bot;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return expected !== '' && a.length === b.length && timingSafeEqual(a, b);
}

function isUpdate(value: unknown): value is Update {
  return typeof value === 'object' && value !== null && Number.isInteger((value as { update_id?: unknown }).update_id);
}

/** What went wrong, without the request: Bot API URLs carry the bot token. */
function describeError(error: unknown): string {
  if (error instanceof GrammyError) return `${error.method}: ${error.error_code} ${error.description}`;
  if (error instanceof HttpError) return `network error calling the Bot API (${String((error.error as Error)?.name)})`;
  if (error instanceof AppError) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}
