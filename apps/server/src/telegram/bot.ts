import type { TelegramBotConfig } from '../config.js';
import { AppError } from '../platform/errors.js';
import { type TelegramBot, type TelegramBotDeps, webhookModeOf } from './bot-contract.js';

export type { TelegramBot, TelegramBotDeps, WebhookOutcome } from './bot-contract.js';

export function createTelegramBot(deps: TelegramBotDeps): TelegramBot {
  return deps.config ? loadedOnFirstUse(deps.config, deps) : disabledBot();
}

/**
 * The bot library (grammy) is loaded only where TG_BOT_API_KEY is set, when the bot is first used
 * (platform/lazy-module.ts says why); the bot's methods wait for it.
 */
function loadedOnFirstUse(config: TelegramBotConfig, deps: TelegramBotDeps): TelegramBot {
  let loaded: TelegramBot | undefined;
  let loading: Promise<TelegramBot> | undefined;
  const bot = () => {
    loading ??= import('./enabled-bot.js').then(({ enabledBot }) => {
      loaded = enabledBot(config, deps);
      return loaded;
    });
    return loading;
  };
  return {
    enabled: true,
    isWebhook: () => webhookModeOf(config, deps),
    username: () => loaded?.username() ?? '',
    start: async () => (await bot()).start(),
    // A stop during the first load waits for it, so a bot still starting is stopped too.
    stop: async () => (loading ? (await loading).stop() : undefined),
    reload: async () => (await bot()).reload(),
    handleWebhook: async (token, secret, update) => (await bot()).handleWebhook(token, secret, update),
  };
}

function disabledBot(): TelegramBot {
  return {
    enabled: false,
    isWebhook: () => false,
    username: () => '',
    start: async () => undefined,
    stop: async () => undefined,
    reload: async () => {
      throw AppError.badRequest('the Telegram bot is off: set TG_BOT_API_KEY and restart the server');
    },
    handleWebhook: async () => 'not-found',
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Telegram bot (disabled without TG_BOT_API_KEY); started and stopped by assemble.ts. */
    telegramBot: TelegramBot;
  }
}
