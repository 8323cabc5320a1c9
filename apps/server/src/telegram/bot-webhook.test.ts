import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { type FakeBotApi, startFakeBotApi } from '../../test/telegram/fake-bot-api.js';
import { maskUrlSecrets } from '../platform/logger.js';

const SECRET = 'webhook-secret-0123456789';

/**
 * The bot in webhook mode: with a webhook secret and a server address it registers
 * `<ServerAddress>/api/telegram/<token>` with the secret, and Telegram's deliveries to that route
 * are answered; a wrong secret or token is refused before the update is read.
 */
describe('Telegram bot by webhook', () => {
  let fake: FakeBotApi;
  let t: TestApp;
  let address: string;

  const asRoot = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, ...(payload ? { payload } : {}) });
  const deliver = (token: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/telegram/${token}`, headers, payload });
  const update = (id: number, text: string) => ({
    update_id: id,
    message: {
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 7001, type: 'private', first_name: 'hooked' },
      from: { id: 7001, is_bot: false, first_name: 'hooked' },
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.length }],
    },
  });

  beforeAll(async () => {
    fake = await startFakeBotApi();
    t = await startTestApp({
      env: { TG_BOT_API_KEY: fake.token, TG_WEBHOOK_SECRET: SECRET, TELEGRAM_API_ROOT: fake.apiRoot },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    address = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // The start-up registration used the default address; the test's own comes with a reload.
    await fake.waitForCall('setWebhook');
    const saved = await asRoot('PUT', '/api/option/', { key: 'ServerAddress', value: `${address}/` });
    expect(saved.statusCode).toBe(200);
    expect((await asRoot('PUT', '/api/option/telegram/reload')).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('registers the webhook with its secret and never polls', async () => {
    expect(fake.webhook()).toEqual({ url: `${address}/api/telegram/${fake.token}`, secret_token: SECRET });
    expect(fake.calls).not.toContain('getUpdates');
    expect((await asRoot('GET', '/api/option/telegram/status')).json().data).toEqual({
      status: true,
      is_webhook: true,
    });
  });

  it("answers Telegram's deliveries over HTTP", async () => {
    // The fake POSTs to the registered URL with the secret header, as Telegram does.
    await fake.userSays('/balance', { id: 7002 });
    expect((await fake.nextMessage(7002)).text).toMatch(/not bound to a One Hub account/);
    await fake.userSays('/bind', { id: 7002 });
    expect((await fake.nextMessage(7002)).text).toMatch(/access token/);
    // The answer goes through the conversation kept in the shared cache.
    await fake.userSays(ROOT_TOKEN, { id: 7002 });
    expect((await fake.nextMessage(7002)).text).toBe('Bound to root. Try /balance.');
  });

  it('refuses a wrong secret or token, and a body that is not an update, without answering', async () => {
    const sentBefore = fake.sent.length;
    const missing = await deliver(fake.token, {}, update(900, '/balance'));
    expect(missing.statusCode).toBe(401);
    const wrong = await deliver(fake.token, { 'x-telegram-bot-api-secret-token': 'guess' }, update(901, '/balance'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/webhook secret/);
    const otherToken = await deliver(
      '1:another-bots-token',
      { 'x-telegram-bot-api-secret-token': SECRET },
      update(902, '/aff'),
    );
    expect(otherToken.statusCode).toBe(404);
    const notUpdate = await deliver(fake.token, { 'x-telegram-bot-api-secret-token': SECRET }, { hello: 'world' });
    expect(notUpdate.statusCode).toBe(400);
    expect(fake.sent.length).toBe(sentBefore);
  });

  it('does not take a delivery for a cross-site browser write', async () => {
    // Telegram sends no cookie; a delivery naming another origin is still Telegram's.
    const response = await deliver(
      fake.token,
      {
        'x-telegram-bot-api-secret-token': SECRET,
        origin: 'https://elsewhere.example',
        'sec-fetch-site': 'cross-site',
      },
      update(903, '/balance'),
    );
    expect(response.statusCode).toBe(200);
    expect((await fake.nextMessage(7001)).text).toMatch(/not bound/);
  });

  it('keeps the bot token out of logged URLs', () => {
    const masked = maskUrlSecrets(`/api/telegram/${fake.token}`);
    expect(masked).toBe('/api/telegram/***');
    expect(maskUrlSecrets(`https://api.telegram.org/bot${fake.token}/getMe`)).not.toContain(fake.token.split(':')[1]);
  });
});
