import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { OptionRepository } from './repo.js';

/**
 * Every key the reference's settings screens send (reference §3.2 and §6.2 "Setting", plus
 * `LarkClientId/LarkClientSecret`), with a value of the kind its console sends, in an order where
 * the ids and secrets a sign-in switch needs come before the switch.
 */
const REFERENCE_KEYS: Array<[string, string | number]> = [
  ['PasswordLoginEnabled', 'false'],
  ['PasswordRegisterEnabled', 'false'],
  ['EmailVerificationEnabled', 'true'],
  ['GitHubClientId', 'gh-client-id'],
  ['GitHubClientSecret', 'gh-client-secret-value'],
  ['GitHubOAuthEnabled', 'true'],
  ['GitHubOldIdCloseEnabled', 'true'],
  ['WeChatServerAddress', 'https://wechat.example.com'],
  ['WeChatServerToken', 'wechat-token-value'],
  ['WeChatAccountQRCodeImageURL', 'https://wechat.example.com/qr.png'],
  ['WeChatAuthEnabled', 'true'],
  ['LarkClientId', 'lark-client-id'],
  ['LarkClientSecret', 'lark-client-secret-value'],
  ['LarkAuthEnabled', 'true'],
  ['OIDCClientId', 'oidc-client-id'],
  ['OIDCClientSecret', 'oidc-client-secret-value'],
  ['OIDCIssuer', 'https://id.example.com'],
  ['OIDCScopes', 'openid,email'],
  ['OIDCUsernameClaims', 'email'],
  ['OIDCAuthEnabled', 'true'],
  ['TurnstileSiteKey', 'turnstile-site-key'],
  ['TurnstileSecretKey', 'turnstile-secret-key-value'],
  ['TurnstileCheckEnabled', 'true'],
  ['RegisterEnabled', 'false'],
  ['EmailDomainWhitelist', 'example.com,example.org'],
  ['EmailDomainRestrictionEnabled', 'true'],
  ['SMTPServer', 'smtp.example.com'],
  ['SMTPPort', 465],
  ['SMTPAccount', 'mailer@example.com'],
  ['SMTPFrom', 'hub@example.com'],
  ['SMTPToken', 'smtp-token-value'],
  ['Notice', '**Maintenance** at noon'],
  ['About', '<p>About us</p>'],
  ['HomePageContent', 'https://home.example.com'],
  ['Footer', 'Footer text'],
  ['SystemName', 'My Hub'],
  ['Logo', 'https://cdn.example.com/logo.png'],
  ['AnalyticsCode', '<script>window.analytics = 1</script>'],
  ['ServerAddress', 'https://hub.example.com'],
  ['QuotaForNewUser', 1000],
  ['QuotaForInviter', 10],
  ['QuotaForInvitee', 20],
  ['QuotaRemindThreshold', 50],
  ['PreConsumedQuota', 600],
  ['TopUpLink', 'https://shop.example.com'],
  ['ChatLink', 'https://chat.example.com'],
  // As the reference's grid saves it: pretty-printed, random ids, sort as a number or as digits.
  [
    'ChatLinks',
    JSON.stringify(
      [
        { id: 'k3j9x0a1b', name: 'Next', url: 'https://chat.example.com/#/?key={key}', show: true, sort: 5 },
        {
          id: 'q8w7e6r5t',
          name: 'Cat',
          url: 'opencat://team/join?domain={server}&token={key}',
          show: false,
          sort: '2',
        },
      ],
      null,
      2,
    ),
  ],
  ['QuotaPerUnit', '1000000'],
  ['DisplayInCurrencyEnabled', 'false'],
  ['LogConsumeEnabled', 'false'],
  ['ApproximateTokenEnabled', 'true'],
  ['AutomaticDisableChannelEnabled', 'true'],
  ['AutomaticEnableChannelEnabled', 'true'],
  ['ChannelDisableThreshold', '2.5'],
  ['DisableChannelKeywords', 'quota exceeded\naccount banned'],
  ['RetryTimes', 2],
  ['RetryTimeOut', 20],
  ['RetryCooldownSeconds', 9],
  ['MjNotifyEnabled', 'true'],
  ['ChatImageRequestProxy', 'socks5://127.0.0.1:1080'],
  ['CFWorkerImageUrl', 'https://images.worker.example.com'],
  ['CFWorkerImageKey', 'cf-worker-key-value'],
  ['PaymentUSDRate', '7.1'],
  ['PaymentMinAmount', 5],
  ['RechargeDiscount', '{\n  "100": 0.95\n}'],
  ['OldTokenMaxId', '42'],
  ['GeminiAPIEnabled', 'false'],
  ['ClaudeAPIEnabled', 'false'],
  ['EnableSafe', 'true'],
  ['SafeToolName', 'Keyword'],
  ['SafeKeyWords', 'bad word\nworse word'],
  ['ClaudeBudgetTokensPercentage', '0.5'],
  ['ClaudeDefaultMaxTokens', '{"default":4096}'],
  ['GeminiOpenThink', '{"gemini-2.5-pro":true}'],
];

/** Write-only here; the reference lists `TurnstileSecretKey` and `CFWorkerImageKey` in plain text, we do not. */
const WRITE_ONLY = [
  'GitHubClientSecret',
  'WeChatServerToken',
  'LarkClientSecret',
  'OIDCClientSecret',
  'TurnstileSecretKey',
  'SMTPToken',
  'CFWorkerImageKey',
];

type Entry = { key: string; value: string };

describe.each(availableDialects)('settings as the reference console reads and writes them (%s)', (dialect) => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(() => t?.close());

  const put = (key: string, value: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/option/', headers: { cookie: root }, payload: { key, value } });
  const list = async (): Promise<Entry[]> =>
    (await t.app.inject({ method: 'GET', url: '/api/option/', headers: { cookie: root } })).json().data;
  const stored = async (key: string) => (await list()).find((entry) => entry.key === key)?.value;
  const links = (value: string | undefined) => JSON.parse(value ?? 'null') as Array<Record<string, unknown>>;

  /** Saves every listed value back unchanged, as the reference's console does, and reads again. */
  async function roundTrip(): Promise<void> {
    const before = await list();
    for (const { key, value } of before) {
      const response = await put(key, value);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(200);
    }
    expect(await list()).toEqual(before);
  }

  it('defaults ChatLinks to the reference console links, each row with a unique id', async () => {
    const rows = links(await stored('ChatLinks'));
    expect(rows.map((row) => row.name)).toEqual(['ChatGPT Next', 'chatgpt-web-midjourney-proxy', 'AMA', 'OpenCat']);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['id', 'name', 'show', 'sort', 'url']);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    const status = (await t.app.inject({ method: 'GET', url: '/api/status' })).json().data;
    expect(links(status.chat_links)).toEqual(rows);
  });

  it('reads back unchanged what it serves, for every option of a fresh install', async () => {
    await roundTrip();
  });

  it('serves stored chat links that predate ids (or are blank) with ids, and takes them back', async () => {
    const legacy = JSON.stringify([
      { name: 'Old', url: 'https://old.example.com/?k={key}', show: true, sort: 1 },
      { id: 'link-1', name: 'Kept', url: 'https://kept.example.com', show: false, sort: 2 },
    ]);
    // Written straight to the table, as an older version or an import left it.
    await new OptionRepository(t.database).upsert('ChatLinks', legacy);
    await t.services.options.load();
    expect(links(await stored('ChatLinks'))).toEqual([
      { id: 'link-2', name: 'Old', url: 'https://old.example.com/?k={key}', show: true, sort: 1 },
      { id: 'link-1', name: 'Kept', url: 'https://kept.example.com', show: false, sort: 2 },
    ]);
    await roundTrip();

    await new OptionRepository(t.database).upsert('ChatLinks', '');
    await t.services.options.load();
    expect(links(await stored('ChatLinks')).every((row) => typeof row.id === 'string')).toBe(true);
    await roundTrip();
  });

  it('fills the id of a row saved without one', async () => {
    const saved = await put('ChatLinks', '[{"name":"New","url":"https://new.example.com","show":true,"sort":1}]');
    expect(saved.statusCode).toBe(200);
    expect(links(await stored('ChatLinks'))).toEqual([
      { id: 'link-1', name: 'New', url: 'https://new.example.com', show: true, sort: 1 },
    ]);
  });

  it('stores every key the reference console sends; secrets stay write-only', async () => {
    const refused: string[] = [];
    for (const [key, value] of REFERENCE_KEYS) {
      const response = await put(key, value);
      if (response.statusCode !== 200) refused.push(`${key}: ${response.json().message}`);
    }
    expect(refused).toEqual([]);
    await t.services.options.load();
    const served = Object.fromEntries((await list()).map((entry) => [entry.key, entry.value]));
    for (const [key, value] of REFERENCE_KEYS) {
      if (WRITE_ONLY.includes(key)) expect(served, key).not.toHaveProperty(key);
      else expect(served[key], key).toBe(String(value));
    }
    const secrets = (
      await t.app.inject({ method: 'GET', url: '/api/option/secrets', headers: { cookie: root } })
    ).json().data as Array<{ key: string; set: boolean }>;
    for (const key of WRITE_ONLY) expect(secrets.find((entry) => entry.key === key)?.set, key).toBe(true);
    const body = JSON.stringify(served);
    for (const [key, value] of REFERENCE_KEYS) if (WRITE_ONLY.includes(key)) expect(body).not.toContain(value);
    await roundTrip();
  });

  it('still refuses a key the reference does not have, naming it', async () => {
    const response = await put('CFWorkerImageSecretUrl', 'x');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('CFWorkerImageSecretUrl');
  });
});
