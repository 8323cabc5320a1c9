import {
  TELEGRAM_BUILTIN_COMMANDS,
  type TelegramMenuBody,
  type TelegramMenuView,
  type TelegramParseMode,
  telegramMenuBody,
} from '@one-hub/contracts';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { byFirstKey, placeIssues } from '../../components/form/placeIssues.js';

export type ParseMode = TelegramParseMode;
/** The reply formats Telegram knows, in the select's order (the default first); '' is plain text. */
export const PARSE_MODES: readonly ParseMode[] = ['MarkdownV2', 'Markdown', 'HTML', ''];

export const DESCRIPTION_MAX_LENGTH = 255;
/** Telegram's limit on one message's text. */
export const REPLY_MAX_LENGTH = 4096;

/** The i18n key of a parse mode's name ('' has no name of its own: "plain text"). */
export function parseModeKey(mode: string): string {
  return (PARSE_MODES as readonly string[]).includes(mode) && mode !== '' ? `parseMode.${mode}` : 'parseMode.plain';
}

/** The command dialog's fields as the inputs hold them. */
export interface TelegramFormValues {
  command: string;
  description: string;
  parseMode: ParseMode;
  reply: string;
}

export type TelegramFormField = 'command' | 'description' | 'parseMode' | 'reply';
export type TelegramFormErrors = Partial<Record<TelegramFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

export function emptyTelegramForm(): TelegramFormValues {
  return { command: '', description: '', parseMode: 'MarkdownV2', reply: '' };
}

export function telegramMenuToForm(menu: TelegramMenuView): TelegramFormValues {
  const parseMode = (PARSE_MODES as readonly string[]).includes(menu.parse_mode) ? menu.parse_mode : '';
  return {
    command: menu.command,
    description: menu.description,
    parseMode: parseMode as ParseMode,
    reply: menu.reply_message,
  };
}

/** What a user types may start with the slash they send in Telegram; the name is without it. */
export function commandName(text: string): string {
  return text.trim().replace(/^\//, '');
}

export function isBuiltinCommand(name: string): boolean {
  return (TELEGRAM_BUILTIN_COMMANDS as readonly string[]).includes(name.toLowerCase());
}

const fieldOfPath: Record<string, TelegramFormField> = {
  command: 'command',
  description: 'description',
  parse_mode: 'parseMode',
  reply_message: 'reply',
};

function issueText(field: TelegramFormField, code: string, values: TelegramFormValues, t: Translate): string {
  const name = commandName(values.command);
  switch (field) {
    case 'command':
      if (name === '') return t('telegram:form.errors.commandRequired');
      if (isBuiltinCommand(name)) return t('telegram:form.errors.commandBuiltin', { command: name });
      return t('telegram:form.errors.commandPattern');
    case 'description':
      if (code === 'too_big') return t('telegram:form.errors.descriptionTooLong', { max: DESCRIPTION_MAX_LENGTH });
      return t('telegram:form.errors.descriptionRequired');
    case 'parseMode':
      return t('telegram:form.errors.parseMode');
    case 'reply':
      if (code === 'too_big') return t('telegram:form.errors.replyTooLong', { max: REPLY_MAX_LENGTH });
      return t('telegram:form.errors.replyRequired');
  }
}

export type TelegramFormResult = FormCheck<TelegramMenuBody, TelegramFormField>;

/**
 * Checks the values with the server's schema (spec: command, description, message type and content
 * required) and turns its issues into translated field messages. `id` null creates a command.
 */
export function validateTelegramForm(values: TelegramFormValues, id: number | null, t: Translate): TelegramFormResult {
  const errors: TelegramFormErrors = {};
  const name = commandName(values.command);
  // The server refuses them too; saying so before the round trip names the reason in place.
  if (isBuiltinCommand(name)) errors.command = t('telegram:form.errors.commandBuiltin', { command: name });
  if (values.description.trim() === '') errors.description = t('telegram:form.errors.descriptionRequired');
  const parsed = telegramMenuBody.safeParse({
    ...(id === null ? {} : { id }),
    command: name,
    description: values.description.trim(),
    parse_mode: values.parseMode,
    reply_message: values.reply,
  });
  const fieldAt = byFirstKey(fieldOfPath);
  const { unplaced } = placeIssues(
    parsed.error?.issues ?? [],
    fieldAt,
    (field, issue) => issueText(field, issue.code, values, t),
    errors,
  );
  if (values.reply.trim() === '') errors.reply ??= t('telegram:form.errors.replyRequired');
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors, unplaced };
  return { ok: true, body: parsed.data };
}

/** The form's field for the field a server refusal names (the API's `parse_mode` is `parseMode` here). */
export function formFieldOf(apiField: string): TelegramFormField | undefined {
  return fieldOfPath[apiField];
}
