import { Bot } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeBotApi, startFakeBotApi } from './fake-bot-api.js';

describe('fake Telegram Bot API', () => {
  let fake: FakeBotApi | undefined;
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.stop();
    await fake?.close();
  });

  it('serves a grammY bot by long polling and records its replies', async () => {
    fake = await startFakeBotApi({ botUsername: 'fake_bot' });
    bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } });
    bot.command('ping', (ctx) => ctx.reply(`pong ${ctx.chat.type}`, { parse_mode: 'HTML' }));
    void bot.start();
    await fake.userSays('/ping', { id: 7 });
    expect(await fake.nextMessage(7, /pong/)).toMatchObject({ text: 'pong private', parse_mode: 'HTML' });
    await fake.userSays('/ping', { id: 8, chat: 'group' });
    expect((await fake.nextMessage(-8)).text).toBe('pong group');
    expect(bot.botInfo.username).toBe('fake_bot');
  });

  it('refuses other tokens and records commands and webhooks', async () => {
    fake = await startFakeBotApi();
    const other = new Bot('1:wrong', { client: { apiRoot: fake.apiRoot } });
    await expect(other.api.getMe()).rejects.toThrow(/401/);
    const api = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api;
    await api.setMyCommands([{ command: 'bind', description: 'Bind' }]);
    expect(fake.commands()).toEqual([{ command: 'bind', description: 'Bind' }]);
    await api.setWebhook('http://127.0.0.1:1/hook', { secret_token: 's3cret' });
    expect(fake.webhook()).toEqual({ url: 'http://127.0.0.1:1/hook', secret_token: 's3cret' });
    await expect(api.getUpdates()).rejects.toThrow(/409/);
  });
});
