import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../../test/api/root-and-plain.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';

describe('option rules and secret status for the settings screen', () => {
  let t: TestApp;
  let root: string;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    admin = (await createAdmin(t, root, 'admin2')).cookie;
  });
  afterAll(() => t?.close());

  const put = (key: string, value: unknown, cookie = root) =>
    t.app.inject({ method: 'PUT', url: '/api/option/', headers: { cookie }, payload: { key, value } });
  const get = (url: string, cookie = root) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const secretStatus = async () =>
    Object.fromEntries(
      ((await get('/api/option/secrets')).json().data as Array<{ key: string; set: boolean }>).map((entry) => [
        entry.key,
        entry.set,
      ]),
    );

  it('says which secrets are set without ever sending their values', async () => {
    const before = await secretStatus();
    expect(before).toEqual({
      GitHubClientSecret: false,
      WeChatServerToken: false,
      LarkClientSecret: false,
      OIDCClientSecret: false,
      TurnstileSecretKey: false,
      SMTPToken: false,
      CFWorkerImageKey: false,
    });
    expect((await put('SMTPToken', 'smtp-secret-value-42')).statusCode).toBe(200);
    const response = await get('/api/option/secrets');
    expect(response.body).not.toContain('smtp-secret-value-42');
    expect((await secretStatus()).SMTPToken).toBe(true);
    expect((await get('/api/option/')).body).not.toContain('smtp-secret-value-42');

    expect((await put('SMTPToken', '')).statusCode).toBe(200);
    expect((await secretStatus()).SMTPToken).toBe(false);
  });

  it('keeps the secret status and the safety tools to root', async () => {
    expect((await get('/api/option/secrets', admin)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/option/secrets' })).statusCode).toBe(401);
    expect((await get('/api/option/safe_tools', admin)).statusCode).toBe(403);
    expect((await get('/api/option/safe_tools')).json().data).toEqual(['Keyword']);
  });

  it('lists the options added for the settings screen with their defaults', async () => {
    const list = (await get('/api/option/')).json().data;
    expect(list).toContainEqual({ key: 'ChatCacheEnabled', value: 'false' });
    expect(list).toContainEqual({ key: 'ChatCacheExpireMinute', value: '5' });
    expect(list).toContainEqual({ key: 'GroupRatio', value: '{}' });
  });

  it('refuses values outside their rules with a 400 naming the option, and stores nothing', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['RetryTimes', -1, 'RetryTimes must be at least 0'],
      ['QuotaPerUnit', 0, 'QuotaPerUnit must be greater than 0'],
      ['SMTPPort', 70000, 'SMTPPort must be at most 65535'],
      ['ChatCacheExpireMinute', 0, 'ChatCacheExpireMinute must be at least 1'],
      ['ServerAddress', 'hub.example.com', 'ServerAddress must be an http(s) URL'],
      ['Logo', 'javascript:alert(1)', 'Logo must be an http(s) URL or a path'],
      ['ChatImageRequestProxy', 'ftp://proxy', 'ChatImageRequestProxy must be a proxy URL'],
      ['Language', 'fr_FR', 'Language must be one of zh_CN, zh_HK, en_US, ja_JP'],
      ['RechargeDiscount', '[1,2]', 'RechargeDiscount must be a JSON object'],
      ['RechargeDiscount', '{"100": 1.5}', 'RechargeDiscount value of "100" must be a ratio'],
      ['RechargeDiscount', '{"lots": 0.9}', 'RechargeDiscount key "lots" must be an amount'],
      ['GroupRatio', '{"vip": -1}', 'GroupRatio value of "vip" must be a number of at least 0'],
      ['ChatLinks', '[{"name": "", "url": "https://chat.example"}]', 'ChatLinks link 1 needs a name'],
      ['ChatLinks', '{"name": "x"}', 'ChatLinks must be a JSON list'],
      ['ClaudeDefaultMaxTokens', '{"default": 1.5}', 'must be a whole number of at least 1'],
      ['GeminiOpenThink', '{"gemini-2.5-pro": "yes"}', 'must be true or false'],
    ];
    for (const [key, value, message] of cases) {
      const response = await put(key, value);
      expect(response.statusCode, key).toBe(400);
      expect(response.json().message, key).toContain(message);
    }
    const list: Array<{ key: string; value: string }> = (await get('/api/option/')).json().data;
    const value = (key: string) => list.find((entry) => entry.key === key)?.value;
    expect(value('RetryTimes')).toBe('2');
    expect(value('RechargeDiscount')).toBe('{}');
    expect(value('ServerAddress')).toBe('http://localhost:3000');
  });

  it('accepts values within the rules, including an empty URL that turns a link off', async () => {
    const accepted: Array<[string, unknown]> = [
      ['RechargeDiscount', '{"100": 0.95, "500": 0.9}'],
      ['GroupRatio', '{"default": 1, "vip": 0.8}'],
      ['ChatLinks', '[{"id": "m1", "name": "Mine", "url": "https://chat.example/?k={key}", "show": true, "sort": 3}]'],
      ['ServerAddress', ''],
      ['Logo', '/logo.png'],
      ['ChatImageRequestProxy', 'socks5://127.0.0.1:1080'],
      ['Language', 'en_US'],
      ['SMTPPort', 465],
      ['ChatCacheEnabled', true],
      ['ChatCacheExpireMinute', 30],
    ];
    for (const [key, value] of accepted) {
      const response = await put(key, value);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(200);
      expect(t.services.options.get(key as 'Logo')).toBe(String(value));
    }
  });
});
