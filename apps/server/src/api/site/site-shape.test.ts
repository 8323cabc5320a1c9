import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, type Shape } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * `GET /api/status` as the reference documents it (§1.2) and its console reads it: the console
 * caches the object as its site information and reads these fields all over its screens.
 * `chat_links` and `RechargeDiscount` are JSON text the console parses itself.
 * `SafeKeyWords` is there but empty, unlike the reference: the list is root's (options API).
 */
const statusShape: Shape = {
  version: 'string',
  start_time: 'number',
  email_verification: 'boolean',
  github_oauth: 'boolean',
  github_client_id: 'string',
  oidc_auth: 'boolean',
  lark_login: 'boolean',
  lark_client_id: 'string',
  system_name: 'string',
  logo: 'string',
  language: 'string',
  footer_html: 'string',
  analytics_code: 'string',
  wechat_qrcode: 'string',
  wechat_login: 'boolean',
  server_address: 'string',
  turnstile_check: 'boolean',
  turnstile_site_key: 'string',
  top_up_link: 'string',
  chat_link: 'string',
  quota_per_unit: 'number',
  display_in_currency: 'boolean',
  telegram_bot: 'string',
  mj_notify_enabled: 'boolean',
  chat_links: 'string',
  PaymentUSDRate: 'number',
  PaymentMinAmount: 'number',
  RechargeDiscount: 'string',
  EnableSafe: 'boolean',
  SafeToolName: 'string',
  // Always empty (the keyword list is private): the field stays for consoles that read it.
  SafeKeyWords: 'array',
  UserInvoiceMonth: 'boolean',
  UptimeDomain: 'string',
  UptimePageName: 'string',
  UptimeEnabled: 'boolean',
};

describe.each(availableDialects)('site routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    // A keyword list, which /api/status must not tell.
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { authorization: ROOT_TOKEN },
      payload: { key: 'SafeKeyWords', value: 'alpha\nbeta' },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function data(url: string): Promise<unknown> {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    return body.data;
  }

  it('GET /api/status carries every field the console reads, with the reference’s types', async () => {
    expectShape(await data('/api/status'), statusShape);
  });

  it('GET /api/status keeps the content-safety keyword list private; root still reads it from the options', async () => {
    const status = (await data('/api/status')) as { SafeKeyWords: string[] };
    expect(status.SafeKeyWords).toEqual([]);
    const response = await t.app.inject({ method: 'GET', url: '/api/option/', headers: { authorization: ROOT_TOKEN } });
    expect(response.statusCode).toBe(200);
    const options = response.json().data as Array<{ key: string; value: string }>;
    expect(options.find((option) => option.key === 'SafeKeyWords')?.value).toBe('alpha\nbeta');
  });

  it('GET /api/notice, /api/about and /api/home_page_content answer the option text', async () => {
    for (const url of ['/api/notice', '/api/about', '/api/home_page_content']) {
      expect(typeof (await data(url)), url).toBe('string');
    }
  });
});
