import type { Paged, TelegramMenuView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/** The bot's custom menus through /api/option/telegram/ on each database: rules, paging, keyword. */
describe.each(availableDialects)('Telegram menus on %s', (dialect) => {
  let t: TestApp;
  let user: { id: number; cookie: string };

  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, ...(payload ? { payload } : {}) });
  const menu = (command: string, extra: Partial<TelegramMenuView> = {}) => ({
    command,
    description: `About ${command}`,
    parse_mode: '',
    reply_message: `Reply of ${command}`,
    ...extra,
  });
  const list = async (query: string): Promise<Paged<TelegramMenuView>> =>
    (await call('GET', `/api/option/telegram/?${query}`)).json().data;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    user = await t.createUser('tgmenuuser');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('creates, reads, updates and deletes a menu', async () => {
    const created = await call('POST', '/api/option/telegram/', menu('/docs', { parse_mode: 'MarkdownV2' }));
    expect(created.statusCode).toBe(200);
    const view = created.json().data as TelegramMenuView;
    expect(view).toMatchObject({ command: 'docs', parse_mode: 'MarkdownV2', reply_message: 'Reply of /docs' });

    const updated = await call('POST', '/api/option/telegram/', { ...menu('docs2'), id: view.id });
    expect(updated.statusCode).toBe(200);
    expect((await call('GET', `/api/option/telegram/${view.id}`)).json().data).toEqual({
      ...menu('docs2'),
      id: view.id,
    });
    // Saving the same values again is not "not found" (MySQL reports no changed row).
    expect((await call('POST', '/api/option/telegram/', { ...menu('docs2'), id: view.id })).statusCode).toBe(200);

    expect((await call('DELETE', `/api/option/telegram/${view.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/option/telegram/${view.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/option/telegram/${view.id}`)).statusCode).toBe(404);
    const missing = await call('POST', '/api/option/telegram/', { ...menu('ghost'), id: view.id });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses built-in, duplicate and malformed commands and bad fields, naming the problem', async () => {
    const builtin = await call('POST', '/api/option/telegram/', menu('balance'));
    expect(builtin.statusCode).toBe(400);
    expect(builtin.json().message).toMatch(/built-in command/);
    // The envelope names the field the body schema refused, so a form shows the message beside it.
    expect(builtin.json().field).toBe('command');

    expect((await call('POST', '/api/option/telegram/', menu('faq'))).statusCode).toBe(200);
    const duplicate = await call('POST', '/api/option/telegram/', menu('/faq'));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ success: false, message: 'command: /faq is already taken', field: 'command' });

    const cases: Array<[object, RegExp, string]> = [
      [menu('Has Space'), /lowercase letters/, 'command'],
      [menu('x'.repeat(33)), /lowercase letters/, 'command'],
      [menu('okcmd', { description: '  ' }), /description is required/, 'description'],
      [menu('okcmd', { parse_mode: 'BBCode' }), /parse_mode must be one of/, 'parse_mode'],
      [menu('okcmd', { reply_message: '' }), /reply_message is required/, 'reply_message'],
    ];
    for (const [body, message, field] of cases) {
      const response = await call('POST', '/api/option/telegram/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.stringMatching(message), field });
    }
    expect((await list('keyword=okcmd')).total_count).toBe(0);
  });

  it('pages, orders and finds menus by command prefix or id', async () => {
    for (const command of ['plan_a', 'plan_b', 'plan_c', 'price']) {
      expect((await call('POST', '/api/option/telegram/', menu(command))).statusCode).toBe(200);
    }
    const first = await list('keyword=plan&page=1&size=2&order=command');
    expect(first.total_count).toBe(3);
    expect(first.data.map((m) => m.command)).toEqual(['plan_a', 'plan_b']);
    const second = await list('keyword=plan&page=2&size=2&order=command');
    expect(second.data.map((m) => m.command)).toEqual(['plan_c']);
    const descending = await list('keyword=p&order=-command');
    expect(descending.data.map((m) => m.command)).toEqual(['price', 'plan_c', 'plan_b', 'plan_a']);
    // Case does not matter for the prefix.
    expect((await list('keyword=PLAN_B')).data.map((m) => m.command)).toEqual(['plan_b']);
    const price = descending.data[0];
    expect((await list(`keyword=${price?.id}`)).data.map((m) => m.command)).toContain('price');
  });

  it('is for root only', async () => {
    for (const [method, url] of [
      ['GET', '/api/option/telegram/'],
      ['POST', '/api/option/telegram/'],
      ['GET', '/api/option/telegram/status'],
      ['PUT', '/api/option/telegram/reload'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { cookie: user.cookie }, payload: menu('sneaky') });
      expect(response.statusCode).toBe(403);
    }
  });

  it('cannot reload a bot that is off, and says how to turn it on', async () => {
    const response = await call('PUT', '/api/option/telegram/reload');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/TG_BOT_API_KEY/);
    expect((await call('GET', '/api/option/telegram/status')).json().data).toEqual({
      status: false,
      is_webhook: false,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/status' })).json().data.telegram_bot).toBe('');
  });
});
