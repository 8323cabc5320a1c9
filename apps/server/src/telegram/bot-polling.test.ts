import { TELEGRAM_BUILTIN_COMMANDS } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { availableDialects } from '../../test/databases.js';
import { type FakeBotApi, startFakeBotApi } from '../../test/telegram/fake-bot-api.js';

const NOT_BOUND = /not bound to a One Hub account/;

/**
 * The bot in long-polling mode against a fake Bot API, on each database: a Telegram user binds an
 * account with its access token, reads the balance, recharges with a real redemption code (once),
 * lists keys (full only in a private chat), gets a custom menu's reply and unbinds.
 */
describe.each(availableDialects)('Telegram bot by long polling on %s', (dialect) => {
  let fake: FakeBotApi;
  let t: TestApp;
  let alice: { id: number; cookie: string };
  let accessToken: string;
  const telegramId = 5001;

  const asRoot = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, ...(payload ? { payload } : {}) });
  /** What the bot answers to `text` from the Telegram user, in a private chat or a group. */
  async function ask(text: string, chat: 'private' | 'group' = 'private', from = telegramId) {
    await fake.userSays(text, { id: from, chat });
    return fake.nextMessage(chat === 'private' ? from : -from);
  }
  const aliceRow = () =>
    t.database.db
      .selectFrom('users')
      .select(['quota', 'telegram_id'])
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    fake = await startFakeBotApi();
    t = await startTestApp({ dialect, env: { TG_BOT_API_KEY: fake.token, TELEGRAM_API_ROOT: fake.apiRoot } });
    alice = await t.createUser('tgalice');
    const token = await t.app.inject({ method: 'POST', url: '/api/user/token', headers: { cookie: alice.cookie } });
    accessToken = token.json().data as string;
    // The bot starts without being awaited; it polls once it has published its commands.
    await fake.waitForCall('getUpdates');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('publishes the built-in commands and names the bot in /api/status', async () => {
    expect(fake.commands().map((c) => c.command)).toEqual([...TELEGRAM_BUILTIN_COMMANDS]);
    const status = (await t.app.inject({ method: 'GET', url: '/api/status' })).json().data;
    expect(status.telegram_bot).toBe(fake.botUsername);
    const bot = (await asRoot('GET', '/api/option/telegram/status')).json().data;
    expect(bot).toEqual({ status: true, is_webhook: false });
    // Without a webhook secret, the webhook route does not exist.
    const hook = await t.app.inject({ method: 'POST', url: `/api/telegram/${fake.token}`, payload: { update_id: 1 } });
    expect(hook.statusCode).toBe(404);
  });

  it('answers an unbound user and binds only with a valid access token, in a private chat', async () => {
    expect((await ask('/balance')).text).toMatch(NOT_BOUND);
    expect((await ask('/bind', 'group')).text).toMatch(/private chat/);
    expect((await ask('/bind')).text).toMatch(/send me your access token/);
    expect((await ask('not-a-real-token')).text).toMatch(/not valid/);
    expect((await aliceRow()).telegram_id).toBe(0);
    // An answer without a question is not taken as a token.
    expect((await ask(accessToken)).text).toMatch(/Commands:/);
    expect((await aliceRow()).telegram_id).toBe(0);

    const deletionsBefore = fake.calls.filter((method) => method === 'deleteMessage').length;
    expect((await ask('/bind')).text).toMatch(/access token/);
    expect((await ask(accessToken)).text).toBe('Bound to tgalice. Try /balance.');
    expect(Number((await aliceRow()).telegram_id)).toBe(telegramId);
    // The message holding the token is removed from the chat.
    expect(fake.calls.filter((method) => method === 'deleteMessage').length).toBe(deletionsBefore + 1);
    expect((await ask('/bind')).text).toMatch(/already bound to tgalice/);
    // Another Telegram user cannot take the same account.
    expect((await ask('/bind', 'private', 5002)).text).toMatch(/access token/);
    expect((await ask(accessToken, 'private', 5002)).text).toMatch(/already bound to a Telegram account/);
  });

  it('recharges a redemption code once and shows the balance', async () => {
    expect((await ask('/balance')).text).toBe('Balance: $0.00\nUsed: $0.00');
    const created = await asRoot('POST', '/api/redemption/', { name: 'tg', quota: 500_000, count: 1 });
    const [code] = created.json().data as string[];

    expect((await ask('/recharge', 'group')).text).toMatch(/private chat/);
    expect((await ask('/recharge')).text).toMatch(/redemption code/);
    expect((await ask(` ${code} `)).text).toBe('Recharged $1.00. Send /balance to see your balance.');
    expect(Number((await aliceRow()).quota)).toBe(500_000);

    expect((await ask('/recharge')).text).toMatch(/redemption code/);
    const again = await ask(String(code));
    expect(again.text).toMatch(/^Recharge failed: /);
    expect(again.text).not.toContain(String(code));
    expect(Number((await aliceRow()).quota)).toBe(500_000);
    // The balance is read in a group too: it shows no secret.
    expect((await ask('/balance', 'group')).text).toBe('Balance: $1.00\nUsed: $0.00');
  });

  it('lists keys in full only in a private chat, ten to a page', async () => {
    const create = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/',
        headers: { cookie: alice.cookie },
        payload: { name, unlimited_quota: true },
      });
    expect((await create('bot <key>')).statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/token/', headers: { cookie: alice.cookie } });
    const key = (list.json().data.data as Array<{ name: string; key: string }>).find(
      (k) => k.name === 'bot <key>',
    )?.key;
    expect(key).toBeTruthy();

    const privately = await ask('/apikey');
    expect(privately.parse_mode).toBe('HTML');
    expect(privately.text).toContain(`bot &lt;key&gt;: <code>sk-${key}</code>`);
    expect(privately.buttons).toBeUndefined();

    const inGroup = await ask('/apikey', 'group');
    expect(inGroup.text).not.toContain(String(key));
    expect(inGroup.text).toContain(`<code>sk-${key?.slice(0, 4)}…${key?.slice(-4)}</code>`);
    expect(inGroup.text).toMatch(/private chat to see them in full/);

    // Twelve keys: two pages, turned by the buttons under the list.
    for (let index = 1; index <= 11; index += 1) expect((await create(`k${index}`)).statusCode).toBe(200);
    const first = await ask('/apikey');
    expect(first.text).toMatch(/^Your API keys \(page 1 of 2\):/);
    expect(first.text.split('\n')).toHaveLength(11);
    expect(first.buttons).toEqual([[['Next ›', `apikey:${telegramId}:2`]]]);

    expect(await fake.userClicks(`apikey:${telegramId}:2`, first.message_id, { id: telegramId })).toBe('');
    const second = await fake.nextMessage(telegramId);
    expect(second.edits).toBe(first.message_id);
    expect(second.text).toMatch(/^Your API keys \(page 2 of 2\):/);
    expect(second.text.split('\n')).toHaveLength(3);
    expect(second.buttons).toEqual([[['‹ Previous', `apikey:${telegramId}:1`]]]);

    // In a group, another member cannot turn the owner's list.
    const shared = await ask('/apikey', 'group');
    const refusal = await fake.userClicks(`apikey:${telegramId}:2`, shared.message_id, { id: 5003, chat: 'group' });
    expect(refusal).toMatch(/belongs to someone else/);
    expect(fake.sent.filter((message) => message.edits === shared.message_id)).toHaveLength(0);
  });

  it('answers a custom menu with its parse mode, after a reload publishes it', async () => {
    const saved = await asRoot('POST', '/api/option/telegram/', {
      command: '/pricing',
      description: 'Prices',
      parse_mode: 'HTML',
      reply_message: '<b>See the pricing page</b>',
    });
    expect(saved.statusCode).toBe(200);
    const published = fake.calls.filter((method) => method === 'setMyCommands').length;
    expect((await asRoot('PUT', '/api/option/telegram/reload')).statusCode).toBe(200);
    await fake.waitForCall('setMyCommands', published + 1);
    expect(fake.commands()).toContainEqual({ command: 'pricing', description: 'Prices' });

    expect(await ask('/pricing')).toMatchObject({ text: '<b>See the pricing page</b>', parse_mode: 'HTML' });
    // In a group, a command addressed to this bot by name is answered too.
    expect((await ask(`/pricing@${fake.botUsername}`, 'group')).text).toBe('<b>See the pricing page</b>');
    expect((await ask('/nosuchcommand')).text).toMatch(/^Unknown command\. Commands:/);
  });

  it('gives an invite code and unbinds', async () => {
    const aff = await ask('/aff');
    const code = /Your invite code: (\S+)/.exec(aff.text)?.[1];
    const stored = await t.database.db
      .selectFrom('users')
      .select('aff_code')
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(code).toBe(stored.aff_code);
    expect(aff.text).toContain(`/register?aff=${code}`);

    expect((await ask('/unbind')).text).toMatch(/no longer bound/);
    expect((await aliceRow()).telegram_id).toBe(0);
    expect((await ask('/balance')).text).toMatch(NOT_BOUND);
    expect((await ask('/unbind')).text).toMatch(NOT_BOUND);
  });
});
