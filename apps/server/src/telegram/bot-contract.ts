import type { TelegramBotConfig } from '../config.js';
import type { Logger } from '../platform/logger.js';
import type { Services } from '../services.js';

/** What the rest of the server sees of the Telegram bot, on or off (bot.ts makes one). */
export type WebhookOutcome = 'handled' | 'not-found' | 'wrong-secret' | 'bad-update';

export interface TelegramBot {
  /** TG_BOT_API_KEY is set. */
  readonly enabled: boolean;
  /** Updates come by webhook: a webhook secret and the ServerAddress option are both set. */
  isWebhook(): boolean;
  /** The bot's username from getMe; '' while off or not known yet. */
  username(): string;
  /** Master node: webhook or long polling, then the command list. Failures are logged, never thrown. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Re-publishes the command list (and follows a change of mode on the master node). */
  reload(): Promise<void>;
  handleWebhook(token: string, secret: string | undefined, update: unknown): Promise<WebhookOutcome>;
}

export interface TelegramBotDeps {
  config: TelegramBotConfig | undefined;
  nodeType: 'master' | 'slave';
  services: Services;
  logger: Logger;
}

/** Updates come by webhook when a webhook secret and the ServerAddress option are both set. */
export function webhookModeOf(config: TelegramBotConfig, deps: Pick<TelegramBotDeps, 'services'>): boolean {
  return Boolean(config.webhookSecret && deps.services.options.get('ServerAddress'));
}
