import { formatMoney, TELEGRAM_BUILTIN_COMMANDS, type TelegramBuiltinCommand } from '@one-hub/contracts';
import type { Bot, Context } from 'grammy';
import type { OptionService } from '../api/option/service.js';
import type { RedemptionService } from '../api/redemption/service.js';
import type { TelegramMenuRepository } from '../api/telegram/repo.js';
import type { TokenService } from '../api/token/service.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { TelegramAccounts } from './accounts.js';
import type { Conversations } from './conversation.js';
import { apiKeysKeyboard, apiKeysText, KEYS_PER_PAGE, parsePageButton } from './keys-text.js';

export interface CommandDeps {
  accounts: TelegramAccounts;
  conversations: Conversations;
  menus: TelegramMenuRepository;
  options: OptionService;
  tokens: TokenService;
  redemptions: RedemptionService;
  logger: Logger;
}

export const BUILTIN_DESCRIPTIONS: Record<TelegramBuiltinCommand, string> = {
  bind: 'Bind your One Hub account',
  unbind: 'Unbind your One Hub account',
  balance: 'Show your balance',
  recharge: 'Redeem a recharge code',
  apikey: 'List your API keys',
  aff: 'Your invite link',
};

const NOT_BOUND = 'Your Telegram account is not bound to a One Hub account yet. Send /bind in a private chat with me.';

/** The built-in commands, custom menus and the answers to the bot's questions. */
export function installCommands(bot: Bot, deps: CommandDeps): void {
  const { accounts, conversations } = deps;
  // A new command abandons the question asked before it.
  bot.on('message:entities:bot_command', async (ctx, next) => {
    if (ctx.msg.text?.startsWith('/')) await conversations.cancel(ctx.chat.id, ctx.from.id);
    await next();
  });

  bot.command('bind', privateOnly, async (ctx) => {
    const bound = await accounts.findAnyBound(ctx.from?.id ?? 0);
    if (bound) return void (await ctx.reply(`This Telegram account is already bound to ${bound.username}.`));
    await conversations.begin(ctx.chat.id, ctx.from?.id ?? 0, 'bind');
    await ctx.reply(
      'Please send me your access token (One Hub console → Profile → generate the system access token). Send any command to cancel.',
    );
  });

  bot.command('unbind', privateOnly, async (ctx) => {
    const done = await accounts.unbind(ctx.from?.id ?? 0);
    await ctx.reply(done ? 'Your One Hub account is no longer bound to this Telegram account.' : NOT_BOUND);
  });

  bot.command('balance', async (ctx) => {
    const user = await accounts.findBound(ctx.from?.id ?? 0);
    if (!user) return void (await ctx.reply(NOT_BOUND));
    const perUnit = deps.options.getNumber('QuotaPerUnit') || 1;
    const balance = formatMoney(Number(user.quota) / perUnit);
    const used = formatMoney(Number(user.used_quota) / perUnit);
    await ctx.reply(`Balance: ${balance}\nUsed: ${used}`);
  });

  bot.command('recharge', privateOnly, async (ctx) => {
    if (!(await accounts.findBound(ctx.from?.id ?? 0))) return void (await ctx.reply(NOT_BOUND));
    await conversations.begin(ctx.chat.id, ctx.from?.id ?? 0, 'recharge');
    await ctx.reply('Please send me your redemption code. Send any command to cancel.');
  });

  bot.command('apikey', async (ctx) => {
    const telegramId = ctx.from?.id ?? 0;
    const user = await accounts.findBound(telegramId);
    if (!user) return void (await ctx.reply(NOT_BOUND));
    const page = await deps.tokens.listOwn(user, { page: 1, size: KEYS_PER_PAGE });
    const keyboard = apiKeysKeyboard(page, telegramId);
    await ctx.reply(apiKeysText(page, ctx.chat.type === 'private'), {
      parse_mode: 'HTML',
      ...(keyboard ? { reply_markup: keyboard } : {}),
    });
  });

  // The page buttons under a key list; in a group, only the list's owner may turn its pages.
  bot.callbackQuery(/^apikey:/, async (ctx) => {
    const target = parsePageButton(ctx.callbackQuery.data);
    if (!target || target.telegramId !== ctx.from.id) {
      return void (await ctx.answerCallbackQuery({ text: 'This list belongs to someone else. Send /apikey.' }));
    }
    const user = await accounts.findBound(ctx.from.id);
    if (!user) return void (await ctx.answerCallbackQuery({ text: NOT_BOUND }));
    const page = await deps.tokens.listOwn(user, { page: target.page, size: KEYS_PER_PAGE });
    const keyboard = apiKeysKeyboard(page, ctx.from.id);
    await ctx.editMessageText(apiKeysText(page, ctx.chat?.type === 'private'), {
      parse_mode: 'HTML',
      ...(keyboard ? { reply_markup: keyboard } : {}),
    });
    await ctx.answerCallbackQuery();
  });

  bot.command('aff', async (ctx) => {
    const user = await accounts.findBound(ctx.from?.id ?? 0);
    if (!user) return void (await ctx.reply(NOT_BOUND));
    const code = await accounts.affCode(user);
    const address = deps.options.get('ServerAddress').replace(/\/+$/, '');
    const link = address ? `\nInvite link: ${address}/register?aff=${encodeURIComponent(code)}` : '';
    await ctx.reply(`Your invite code: ${code}${link}`);
  });

  bot.on('message:text', async (ctx) => {
    if (ctx.msg.text.startsWith('/')) return customMenu(ctx, deps);
    const step = await conversations.take(ctx.chat.id, ctx.from.id);
    if (step === 'bind') return answerBind(ctx, deps, ctx.msg.text);
    if (step === 'recharge') return answerRecharge(ctx, deps, ctx.msg.text);
    if (ctx.chat.type === 'private') await ctx.reply(helpText());
  });
}

async function privateOnly(ctx: Context, next: () => Promise<void>): Promise<void> {
  if (ctx.chat?.type === 'private') return next();
  await ctx.reply('For your security, please use this command in a private chat with me.');
}

async function answerBind(ctx: Context, deps: CommandDeps, accessToken: string): Promise<void> {
  // The token should not stay readable in the chat history; failing to delete it is harmless.
  await ctx.deleteMessage().catch(() => undefined);
  const { outcome, user } = await deps.accounts.bind(ctx.from?.id ?? 0, accessToken);
  const answers: Record<typeof outcome, string> = {
    bound: `Bound to ${user?.username}. Try /balance.`,
    'invalid-token': 'That access token is not valid. Send /bind to try again.',
    'user-taken': 'That One Hub account is already bound to a Telegram account. Unbind it first.',
    'telegram-taken': 'This Telegram account is already bound to a One Hub account. Send /unbind first.',
  };
  await ctx.reply(answers[outcome]);
}

async function answerRecharge(ctx: Context, deps: CommandDeps, code: string): Promise<void> {
  const user = await deps.accounts.findBound(ctx.from?.id ?? 0);
  if (!user) return void (await ctx.reply(NOT_BOUND));
  try {
    const quota = await deps.redemptions.redeem(user, code.trim(), '');
    const perUnit = deps.options.getNumber('QuotaPerUnit') || 1;
    await ctx.reply(`Recharged ${formatMoney(quota / perUnit)}. Send /balance to see your balance.`);
  } catch (error) {
    // The service's refusals name the problem and never echo the code.
    if (error instanceof AppError && error.status < 500) {
      return void (await ctx.reply(`Recharge failed: ${error.message}. Send /recharge to try again.`));
    }
    throw error;
  }
}

/** A command that is not a built-in: a custom menu, answered with its text and parse mode. */
async function customMenu(ctx: Context, deps: CommandDeps): Promise<void> {
  const match = /^\/([A-Za-z0-9_]{1,32})(?:@(\w+))?(?:\s|$)/.exec(ctx.msg?.text ?? '');
  if (!match?.[1]) return;
  // A command meant for another bot in the same group.
  if (match[2] && match[2].toLowerCase() !== ctx.me.username.toLowerCase()) return;
  const command = match[1].toLowerCase();
  const menu = (TELEGRAM_BUILTIN_COMMANDS as readonly string[]).includes(command)
    ? undefined
    : await deps.menus.findByCommand(command);
  if (menu) {
    await ctx.reply(menu.reply_message, menu.parse_mode ? { parse_mode: menu.parse_mode as 'HTML' } : {});
  } else if (ctx.chat?.type === 'private') {
    await ctx.reply(`Unknown command. ${helpText()}`);
  }
}

function helpText(): string {
  const lines = Object.entries(BUILTIN_DESCRIPTIONS).map(([command, description]) => `/${command} - ${description}`);
  return `Commands:\n${lines.join('\n')}`;
}
