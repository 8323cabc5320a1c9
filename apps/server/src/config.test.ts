import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'one-hub-config-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const directory = dataDir();
    const config = loadConfig({ SQLITE_PATH: join(directory, 'one-hub.db') });
    expect(config).toMatchObject({
      port: 3000,
      basePath: '/',
      sqlDsn: undefined,
      redisUrl: undefined,
      logLevel: 'info',
      initialRootQuota: 100_000_000,
    });
    expect(config.dataDir).toBe(directory);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('generates the session secret once and keeps it in the data folder', () => {
    const directory = dataDir();
    const first = loadConfig({ SQLITE_PATH: join(directory, 'one-hub.db') });
    expect(existsSync(join(directory, 'session-secret'))).toBe(true);
    expect(readFileSync(join(directory, 'session-secret'), 'utf8').trim()).toBe(first.sessionSecret);
    expect(loadConfig({ SQLITE_PATH: join(directory, 'one-hub.db') }).sessionSecret).toBe(first.sessionSecret);
    expect(
      loadConfig({ SQLITE_PATH: join(directory, 'x.db'), SESSION_SECRET: 'a-secret-from-env-1234' }).sessionSecret,
    ).toBe('a-secret-from-env-1234');
  });

  it('turns a notifier on only when its required settings are present, and reads POLLING_INTERVAL', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    const quiet = loadConfig(base);
    expect(quiet.notify).toEqual({ email: { disabled: false } });
    expect(quiet.pollingIntervalMs).toBe(0);
    const configured = loadConfig({
      ...base,
      POLLING_INTERVAL: '2.5',
      NOTIFY_EMAIL_DISABLE: 'true',
      NOTIFY_WECOM_WEBHOOK: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k',
      NOTIFY_DINGTALK_TOKEN: 'd-token',
      NOTIFY_DINGTALK_KEYWORD: 'hub',
      NOTIFY_TELEGRAM_BOT_API_KEY: '1:abc',
      // Without a chat id the Telegram notifier stays off.
      NOTIFY_LARK_SECRET: 'only-a-secret',
    });
    expect(configured.pollingIntervalMs).toBe(2500);
    expect(configured.notify).toEqual({
      email: { disabled: true },
      wecom: { webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k' },
      dingtalk: { token: 'd-token', keyword: 'hub', apiBase: 'https://oapi.dingtalk.com' },
    });
    expect(() => loadConfig({ ...base, NOTIFY_WECOM_WEBHOOK: 'not a url' })).toThrow(/NOTIFY_WECOM_WEBHOOK/);
    expect(() => loadConfig({ ...base, POLLING_INTERVAL: '-1' })).toThrow(/POLLING_INTERVAL/);
  });

  it('reads TRUST_PROXY as all, none, or a list of proxy addresses and ranges', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'one-hub.db') };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: 'no' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 172.16.0.0/12, fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      'fd00::/8',
      'loopback',
    ]);
    for (const wrong of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/8', 'loopback,']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY: must be true, false or a/);
    }
  });

  it('normalises BASE_PATH to end with a slash', () => {
    expect(loadConfig({ SQLITE_PATH: join(dataDir(), 'x.db'), BASE_PATH: '/hub' }).basePath).toBe('/hub/');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SQL_DSN: 'oracle://db' }, 'SQL_DSN'],
    [{ REDIS_CONN_STRING: 'localhost:6379' }, 'REDIS_CONN_STRING'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BASE_PATH: 'hub' }, 'BASE_PATH'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ INITIAL_ROOT_PASSWORD: '123' }, 'INITIAL_ROOT_PASSWORD'],
    [{ INITIAL_ROOT_QUOTA: '-1' }, 'INITIAL_ROOT_QUOTA'],
    [{ INITIAL_ROOT_QUOTA: '1.5' }, 'INITIAL_ROOT_QUOTA'],
    [{ INITIAL_ROOT_QUOTA: '1000000000000001' }, 'INITIAL_ROOT_QUOTA'],
  ])('stops on %j with a message naming %s', (environment, variable) => {
    const load = () => loadConfig({ SQLITE_PATH: join(dataDir(), 'x.db'), ...environment });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(new RegExp(`${variable}:`));
  });

  it('accepts PostgreSQL and MySQL DSNs', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig({ ...base, SQL_DSN: 'postgres://u@h/db' }).sqlDsn).toBe('postgres://u@h/db');
    expect(loadConfig({ ...base, SQL_DSN: 'mysql://u@h/db' }).sqlDsn).toBe('mysql://u@h/db');
  });

  it('reads the upstream timeouts, with their defaults, and refuses values that are not milliseconds', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig(base).upstreamTimeouts).toEqual({
      connectMs: 10_000,
      firstByteMs: 120_000,
      answerMs: 300_000,
      idleMs: 120_000,
    });
    expect(loadConfig({ ...base, UPSTREAM_IDLE_TIMEOUT_MS: '5000' }).upstreamTimeouts.idleMs).toBe(5000);
    expect(() => loadConfig({ ...base, UPSTREAM_FIRST_BYTE_TIMEOUT_MS: 'soon' })).toThrow(
      /UPSTREAM_FIRST_BYTE_TIMEOUT_MS:/,
    );
    expect(() => loadConfig({ ...base, UPSTREAM_CONNECT_TIMEOUT_MS: '0' })).toThrow(/UPSTREAM_CONNECT_TIMEOUT_MS:/);
  });

  it('reads WORKERS (auto is one per core) and refuses more than one worker without Redis', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    const redis = { REDIS_CONN_STRING: 'redis://127.0.0.1:6379' };
    expect(loadConfig(base).workers).toBe(1);
    expect(loadConfig({ ...base, ...redis, WORKERS: '2' }).workers).toBe(2);
    expect(loadConfig({ ...base, ...redis, WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(() => loadConfig({ ...base, WORKERS: '2' })).toThrow(/WORKERS: 2 worker processes need REDIS_CONN_STRING/);
    expect(() => loadConfig({ ...base, ...redis, WORKERS: '0' })).toThrow(/WORKERS:/);
    expect(() => loadConfig({ ...base, ...redis, WORKERS: 'many' })).toThrow(/WORKERS:/);
    expect(() => loadConfig({ ...base, ...redis, WORKERS: '65' })).toThrow(/WORKERS:/);
  });

  it('makes only the first worker of a cluster the master node', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig({ ...base, ONE_HUB_WORKER_INDEX: '0' })).toMatchObject({ nodeType: 'master', workerIndex: 0 });
    expect(loadConfig({ ...base, ONE_HUB_WORKER_INDEX: '1' })).toMatchObject({ nodeType: 'slave', workerIndex: 1 });
    // A slave node stays one whichever worker it is.
    expect(loadConfig({ ...base, NODE_TYPE: 'slave', ONE_HUB_WORKER_INDEX: '0' }).nodeType).toBe('slave');
    expect(loadConfig(base).workerIndex).toBeUndefined();
  });

  it('turns metrics on only with both METRICS_USER and METRICS_PASSWORD', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig(base).metrics).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_USER: 'prom', METRICS_PASSWORD: 'scrape-secret' }).metrics).toEqual({
      user: 'prom',
      password: 'scrape-secret',
    });
    expect(() => loadConfig({ ...base, METRICS_USER: 'prom' })).toThrow(/METRICS_PASSWORD: must be set together/);
    expect(() => loadConfig({ ...base, METRICS_PASSWORD: 'scrape-secret' })).toThrow(/METRICS_USER: must be set/);
    expect(() => loadConfig({ ...base, METRICS_USER: 'prom', METRICS_PASSWORD: 'short' })).toThrow(
      /METRICS_PASSWORD: must be at least 8/,
    );
  });

  it('turns the MCP server on only with MCP_ENABLE', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig(base).mcpEnabled).toBe(false);
    expect(loadConfig({ ...base, MCP_ENABLE: 'true' }).mcpEnabled).toBe(true);
    expect(loadConfig({ ...base, MCP_ENABLE: 'false' }).mcpEnabled).toBe(false);
    expect(() => loadConfig({ ...base, MCP_ENABLE: 'on' })).toThrow(/MCP_ENABLE: must be true or false/);
  });

  it('reads the web searchers of #search models, and refuses a SearXNG URL without {query}', () => {
    const base = { SQLITE_PATH: join(dataDir(), 'x.db') };
    expect(loadConfig(base).webSearch).toEqual({ queryModel: 'gpt-4o-mini' });
    const searxngUrl = 'http://searxng.local:8080/search?q={query}&format=json';
    expect(
      loadConfig({ ...base, SEARCH_SEARXNG_URL: searxngUrl, SEARCH_TAVILY_KEY: 'tvly-key', SEARCH_QUERY_MODEL: 'q' })
        .webSearch,
    ).toEqual({ searxngUrl, tavily: { key: 'tvly-key', apiBase: 'https://api.tavily.com' }, queryModel: 'q' });
    expect(() => loadConfig({ ...base, SEARCH_SEARXNG_URL: 'http://searxng.local/search?q=' })).toThrow(
      /SEARCH_SEARXNG_URL: must be an http\(s\) URL with a \{query\} placeholder/,
    );
    expect(() => loadConfig({ ...base, SEARCH_SEARXNG_URL: 'ftp://searxng.local/{query}' })).toThrow(
      /SEARCH_SEARXNG_URL/,
    );
  });
});
