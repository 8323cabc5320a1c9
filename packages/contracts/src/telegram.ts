import { z } from 'zod';
import { keywordPageQuery } from './paging.js';

/** Commands the bot answers itself; a custom menu may not take one of these names. */
export const TELEGRAM_BUILTIN_COMMANDS = ['bind', 'unbind', 'balance', 'recharge', 'apikey', 'aff'] as const;
export type TelegramBuiltinCommand = (typeof TELEGRAM_BUILTIN_COMMANDS)[number];

/** Parse modes Telegram accepts; '' sends the reply as plain text. */
export const TELEGRAM_PARSE_MODES = ['', 'MarkdownV2', 'Markdown', 'HTML'] as const;
export type TelegramParseMode = (typeof TELEGRAM_PARSE_MODES)[number];

/** Telegram's own rule for bot command names. */
export const TELEGRAM_COMMAND_PATTERN = /^[a-z0-9_]{1,32}$/;

/** Columns the menu list may be ordered by. */
export const TELEGRAM_MENU_SORT_FIELDS = ['id', 'command'] as const;

const COMMAND_MESSAGE = 'command must be 1-32 lowercase letters, digits or underscores';

/** Body of POST /api/option/telegram: creates when `id` is 0 or absent, else updates that menu. */
export const telegramMenuBody = z.object({
  id: z.number('id must be a number').int('id must be an integer').min(0, 'id must not be negative').optional(),
  command: z
    .string('command is required')
    .trim()
    .transform((command) => command.replace(/^\//, ''))
    .pipe(z.string().regex(TELEGRAM_COMMAND_PATTERN, COMMAND_MESSAGE))
    .refine(
      (command) => !(TELEGRAM_BUILTIN_COMMANDS as readonly string[]).includes(command),
      'command must not be a built-in command (bind, unbind, balance, recharge, apikey, aff)',
    ),
  description: z
    .string('description must be a string')
    .trim()
    .min(1, 'description is required')
    .max(255, 'description must be at most 255 characters'),
  parse_mode: z.enum(TELEGRAM_PARSE_MODES, 'parse_mode must be one of "", MarkdownV2, Markdown, HTML').default(''),
  reply_message: z
    .string('reply_message is required')
    .min(1, 'reply_message is required')
    .max(4096, 'reply_message must be at most 4096 characters'),
});
export type TelegramMenuBody = z.infer<typeof telegramMenuBody>;
export type TelegramMenuBodyInput = z.input<typeof telegramMenuBody>;

export interface TelegramMenuView {
  id: number;
  command: string;
  description: string;
  parse_mode: string;
  reply_message: string;
}

/** `keyword` matches a menu id exactly or a command by prefix. */
export const telegramMenuListQuery = keywordPageQuery;
export type TelegramMenuListQuery = z.infer<typeof telegramMenuListQuery>;

/** GET /api/option/telegram/status: whether the bot runs and whether it receives updates by webhook. */
export interface TelegramBotStatus {
  status: boolean;
  is_webhook: boolean;
}
