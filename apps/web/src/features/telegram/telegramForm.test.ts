import type { TelegramMenuView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  commandName,
  emptyTelegramForm,
  formFieldOf,
  parseModeKey,
  telegramMenuToForm,
  validateTelegramForm,
} from './telegramForm.js';
import { parseTelegramListParams, telegramListSearch } from './useTelegramListParams.js';

/** Answers the key and its values, so a test can see which message was chosen. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

const filled = { command: '/help_me', description: ' Help ', parseMode: 'MarkdownV2' as const, reply: 'Hi *there*' };

describe('telegram menu form', () => {
  it('sends the command without its slash, the trimmed description, mode and reply', () => {
    const result = validateTelegramForm(filled, null, t);
    expect(result).toEqual({
      ok: true,
      body: { command: 'help_me', description: 'Help', parse_mode: 'MarkdownV2', reply_message: 'Hi *there*' },
    });
  });

  it('keeps the id when editing, and plain text as an empty parse mode', () => {
    const result = validateTelegramForm({ ...filled, parseMode: '' }, 7, t);
    expect(result.ok && result.body).toMatchObject({ id: 7, parse_mode: '' });
  });

  it('requires command, description and reply content', () => {
    const result = validateTelegramForm(emptyTelegramForm(), null, t);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      command: 'telegram:form.errors.commandRequired',
      description: 'telegram:form.errors.descriptionRequired',
      reply: 'telegram:form.errors.replyRequired',
    });
    // A reply of blanks would reach users as an empty message.
    const blank = validateTelegramForm({ ...filled, reply: '   ' }, null, t);
    expect(!blank.ok && blank.errors.reply).toBe('telegram:form.errors.replyRequired');
  });

  it('refuses the built-in command names, whatever the case or slash', () => {
    for (const command of ['bind', '/unbind', 'Balance', 'recharge', 'apikey', 'aff']) {
      const result = validateTelegramForm({ ...filled, command }, null, t);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.command).toMatch(/^telegram:form\.errors\.commandBuiltin /);
    }
  });

  it('refuses names Telegram would not accept', () => {
    for (const command of ['Help', 'help-me', 'a'.repeat(33), 'hi there']) {
      const result = validateTelegramForm({ ...filled, command }, null, t);
      expect(!result.ok && result.errors.command).toBe('telegram:form.errors.commandPattern');
    }
  });

  it('limits the description and the reply', () => {
    const result = validateTelegramForm({ ...filled, description: 'd'.repeat(256), reply: 'r'.repeat(4097) }, null, t);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.description).toMatch(/^telegram:form\.errors\.descriptionTooLong/);
    expect(result.errors.reply).toMatch(/^telegram:form\.errors\.replyTooLong/);
  });

  it('reads a menu back into the form, an unknown parse mode as plain text', () => {
    const menu: TelegramMenuView = {
      id: 3,
      command: 'faq',
      description: 'FAQ',
      parse_mode: 'BBCode',
      reply_message: 'x',
    };
    expect(telegramMenuToForm(menu)).toEqual({ command: 'faq', description: 'FAQ', parseMode: '', reply: 'x' });
    expect(telegramMenuToForm({ ...menu, parse_mode: 'HTML' }).parseMode).toBe('HTML');
  });

  it('names parse modes, and places server refusals on their field', () => {
    expect(parseModeKey('MarkdownV2')).toBe('parseMode.MarkdownV2');
    expect(parseModeKey('')).toBe('parseMode.plain');
    expect(formFieldOf('command')).toBe('command');
    expect(formFieldOf('reply_message')).toBe('reply');
    expect(formFieldOf('id')).toBeUndefined();
    expect(commandName('  /start ')).toBe('start');
  });
});

describe('telegram list params', () => {
  it('reads keyword, order, page and size from the URL', () => {
    const params = parseTelegramListParams(new URLSearchParams('keyword=he&order=-command&page=2&size=20'));
    expect(params).toEqual({ keyword: 'he', order: '-command', page: 2, size: 20 });
  });

  it('drops what the server would refuse', () => {
    const params = parseTelegramListParams(new URLSearchParams('order=reply_message&size=7&page=0'));
    expect(params).toEqual({ keyword: '', order: '', page: 1, size: 10 });
  });

  it('writes only what differs from the defaults', () => {
    expect(telegramListSearch({ keyword: '', order: '', page: 1, size: 10 }).toString()).toBe('');
    expect(telegramListSearch({ keyword: 'h', order: 'id', page: 3, size: 50 }).toString()).toBe(
      'keyword=h&order=id&page=3&size=50',
    );
  });
});
