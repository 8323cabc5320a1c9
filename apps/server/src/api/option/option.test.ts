import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../../test/api/root-and-plain.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { ChangeBus } from '../../platform/changes.js';

describe('options and site information', () => {
  let t: TestApp;
  let root: string;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    admin = (await createAdmin(t, root, 'admin1')).cookie;
  });
  afterAll(() => t?.close());

  const put = (cookie: string, key: string, value: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/option/', headers: { cookie }, payload: { key, value } });

  it('serves every site-info field with its default', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      system_name: 'One Hub',
      quota_per_unit: 500000,
      language: '',
      display_in_currency: true,
      email_verification: false,
      github_oauth: false,
      oidc_auth: false,
      lark_login: false,
      wechat_login: false,
      turnstile_check: false,
      chat_link: '',
      footer_html: '',
      logo: '',
      top_up_link: '',
      telegram_bot: '',
      server_address: 'http://localhost:3000',
    });
    const links = JSON.parse(response.json().data.chat_links);
    expect(links.map((link: { name: string }) => link.name)).toEqual([
      'ChatGPT Next',
      'chatgpt-web-midjourney-proxy',
      'AMA',
      'OpenCat',
    ]);
  });

  it('reports the site language only once an administrator set it, and forgets it when emptied', async () => {
    const status = async () => (await t.app.inject({ method: 'GET', url: '/api/status' })).json().data.language;
    expect(await status()).toBe('');
    expect((await put(root, 'Language', 'zh_HK')).statusCode).toBe(200);
    expect(await status()).toBe('zh_HK');
    expect((await put(root, 'Language', '')).statusCode).toBe(200);
    expect(await status()).toBe('');
  });

  it('lets root read and change options, which take effect at once', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/api/option/', headers: { cookie: root } })).json().data;
    expect(list).toContainEqual({ key: 'SystemName', value: 'One Hub' });
    expect((await put(root, 'SystemName', 'Acme AI')).statusCode).toBe(200);
    expect((await put(root, 'QuotaPerUnit', 1000)).statusCode).toBe(200);
    const status = (await t.app.inject({ method: 'GET', url: '/api/status' })).json().data;
    expect(status).toMatchObject({ system_name: 'Acme AI', quota_per_unit: 1000 });
    await put(root, 'QuotaPerUnit', 500000);
  });

  it('never lists secrets, though root may write them', async () => {
    expect((await put(root, 'SMTPToken', 'smtp-password-xyz')).statusCode).toBe(200);
    expect((await put(root, 'GitHubClientSecret', 'gh-secret-xyz')).statusCode).toBe(200);
    expect((await put(root, 'TurnstileSecretKey', 'ts-secret-xyz')).statusCode).toBe(200);
    const response = await t.app.inject({ method: 'GET', url: '/api/option/', headers: { cookie: root } });
    for (const secret of ['smtp-password-xyz', 'gh-secret-xyz', 'ts-secret-xyz', 'SMTPToken', 'GitHubClientSecret']) {
      expect(response.body).not.toContain(secret);
    }
    expect(t.services.options.get('SMTPToken')).toBe('smtp-password-xyz');
  });

  it('refuses bad values with a 400 naming the problem and stores nothing', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['QuotaPerUnit', 'lots', 'QuotaPerUnit must be a number'],
      ['RetryTimes', '1.5', 'RetryTimes must be an integer'],
      ['RegisterEnabled', 'maybe', 'RegisterEnabled must be true or false'],
      ['ChatLinks', '{not json', 'ChatLinks must be valid JSON'],
      ['NoSuchOption', 'x', "unknown option 'NoSuchOption'"],
    ];
    for (const [key, value, message] of cases) {
      const response = await put(root, key, value);
      expect(response.statusCode, key).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect((await put(root, '', 'x')).statusCode).toBe(400);
    expect(t.services.options.get('RetryTimes')).toBe('2');
  });

  it('needs the client id before enabling GitHub sign-in', async () => {
    await put(root, 'GitHubClientSecret', '');
    const refused = await put(root, 'GitHubOAuthEnabled', true);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('GitHubClientId');
    await put(root, 'GitHubClientId', 'client-id');
    await put(root, 'GitHubClientSecret', 'client-secret');
    expect((await put(root, 'GitHubOAuthEnabled', true)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/status' })).json().data.github_oauth).toBe(true);
  });

  it('keeps options to root: admins get 403, anonymous 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/option/', headers: { cookie: admin } })).statusCode).toBe(
      403,
    );
    expect((await put(admin, 'SystemName', 'Hacked')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/option/' })).statusCode).toBe(401);
  });

  it('serves notice, about and home page content publicly', async () => {
    await put(root, 'Notice', 'Maintenance tonight');
    await put(root, 'About', '# About us');
    await put(root, 'HomePageContent', 'https://example.com');
    const read = async (url: string) => (await t.app.inject({ method: 'GET', url })).json().data;
    expect(await read('/api/notice')).toBe('Maintenance tonight');
    expect(await read('/api/about')).toBe('# About us');
    expect(await read('/api/home_page_content')).toBe('https://example.com');
  });

  it('creates one instance id even when several nodes ask at once, and keeps it read-only', async () => {
    const { OptionService } = await import('./service.js');
    const { OptionRepository } = await import('./repo.js');
    const { createMemoryCache } = await import('../../platform/cache/index.js');
    const nodes = [0, 1, 2].map(
      () =>
        new OptionService(new OptionRepository(t.database), new ChangeBus(createMemoryCache()), {
          error: () => undefined,
        }),
    );
    const ids = await Promise.all(nodes.map((node) => node.instanceId()));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(await t.services.options.instanceId()).toBe(ids[0]);
    const refused = await put(root, 'InstanceId', 'other');
    expect(refused.statusCode).toBe(400);
  });

  it('persists options across a reload from the database', async () => {
    await put(root, 'Footer', '<b>footer</b>');
    await t.services.options.load();
    expect(t.services.options.get('Footer')).toBe('<b>footer</b>');
  });
});
