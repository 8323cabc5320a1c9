import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { MAX_QUOTA } from '@one-hub/contracts';
import { z } from 'zod';
import type { PriceUpdateSettings } from './api/price/update-service.js';
import {
  booleanText,
  httpTimeout,
  logLevels,
  optionalText,
  optionalUrl,
  trustedProxies,
  upstreamTimeout,
} from './config-fields.js';
import { storageConfig, storageEnvironment, storageProblems } from './config-storage.js';
import { type TracingConfig, tracingConfig, tracingEnvironment } from './config-tracing.js';
import type { GatewayEndpoints } from './payments/gateway.js';
import type { NotifyConfig } from './platform/notify.js';
import type { StorageConfig } from './platform/storage/index.js';

/**
 * The only reader of process.env. Everything is parsed and checked once at start-up; a wrong value
 * stops the process with a message that names the variable.
 */

/** The payment vendors' production servers (PAYMENT_* override them for sandboxes and simulators). */
export const PRODUCTION_PAYMENT_ENDPOINTS: Readonly<GatewayEndpoints> = Object.freeze({
  alipayGateway: 'https://openapi.alipay.com/gateway.do',
  wxpayApiBase: 'https://api.mch.weixin.qq.com',
  stripeApiBase: 'https://api.stripe.com',
});

const environmentSchema = z.object({
  PORT: z.coerce
    .number('must be a number')
    .int('must be an integer')
    .min(0)
    .max(65535, 'must be a port number (0-65535)')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_PATH: z
    .string()
    .default('/')
    .refine((value) => /^\/[A-Za-z0-9._~\-/]*$/.test(value), 'must be a URL path starting with "/"')
    .transform((value) => (value.endsWith('/') ? value : `${value}/`)),
  SQLITE_PATH: z.string().min(1, 'must not be empty').default('./data/one-hub.db'),
  SQL_DSN: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine(
      (value) => value === undefined || /^(postgres|postgresql|mysql):\/\//.test(value),
      'must start with postgres://, postgresql:// or mysql://',
    ),
  REDIS_CONN_STRING: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || /^rediss?:\/\//.test(value), 'must start with redis:// or rediss://'),
  SESSION_SECRET: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || value.length >= 16, 'must be at least 16 characters'),
  INITIAL_ROOT_PASSWORD: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 8, 'must be at least 8 characters'),
  INITIAL_ROOT_QUOTA: z.coerce
    .number('must be a number')
    .int('must be a whole number of quota units')
    .min(0)
    .max(MAX_QUOTA)
    .default(100_000_000),
  INITIAL_ROOT_ACCESS_TOKEN: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || value.length >= 16, 'must be at least 16 characters'),
  LOG_LEVEL: z.enum(logLevels, `must be one of ${logLevels.join(', ')}`).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty'], 'must be auto, json or pretty').default('auto'),
  TRUST_PROXY: trustedProxies.default(false),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false'], 'must be auto, true or false').default('auto'),
  API_ERRORS_HTTP_200: booleanText.default(false),
  CRITICAL_RATE_LIMIT: z.coerce.number('must be a number').int().min(0).default(20),
  CRITICAL_RATE_WINDOW_SECONDS: z.coerce.number('must be a number').int().min(1).default(1200),
  // 450: forty cold loads of the signed-in dashboard (about ten API calls each) fit in one window.
  GLOBAL_API_RATE_LIMIT: z.coerce.number('must be a number').int().min(0).default(450),
  GLOBAL_WEB_RATE_LIMIT: z.coerce.number('must be a number').int().min(0).default(180),
  GLOBAL_RATE_WINDOW_SECONDS: z.coerce.number('must be a number').int().min(1).default(180),
  SIGN_IN_FAILURE_LIMIT: z.coerce.number('must be a number').int().min(0).default(10),
  SIGN_IN_FAILURE_WINDOW_SECONDS: z.coerce.number('must be a number').int().min(1).default(900),
  BODY_LIMIT_BYTES: z.coerce
    .number('must be a number')
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /** The management API's own, smaller body limit (never above BODY_LIMIT_BYTES). */
  API_BODY_LIMIT_BYTES: z.coerce
    .number('must be a number')
    .int()
    .min(1024)
    .default(1024 * 1024),
  REQUEST_TIMEOUT_MS: httpTimeout(120_000),
  API_REQUEST_TIMEOUT_MS: httpTimeout(15_000),
  HEADERS_TIMEOUT_MS: httpTimeout(30_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number('must be a number').int().min(0).default(256),
  NODE_TYPE: z.enum(['master', 'slave'], 'must be master or slave').default('master'),
  CHANNEL_TEST_FREQUENCY_MINUTES: z.coerce.number('must be a number').min(0).default(0),
  // Asynchronous tasks (Midjourney, Suno, Kling): how often the master polls unfinished ones, and
  // how long one may stay unfinished before it is failed and refunded.
  TASK_POLL_INTERVAL_SECONDS: z.coerce.number('must be a number').min(1).default(15),
  TASK_TIMEOUT_MINUTES: z.coerce.number('must be a number').min(1).default(120),
  // The Telegram bot (reference tg.*): on when the key is set; webhook mode with a secret.
  TG_BOT_API_KEY: optionalText,
  TG_WEBHOOK_SECRET: optionalText,
  TG_HTTP_PROXY: optionalUrl,
  // Where the Bot API is: Telegram's, a self-hosted Bot API server, or a local stand-in in tests.
  TELEGRAM_API_ROOT: z.url('must be a URL').default('https://api.telegram.org'),
  // Web search for `#search` chat models (reference search.searxng.url, search.tavily.key).
  SEARCH_SEARXNG_URL: optionalUrl.refine(
    (value) => value === undefined || (/^https?:\/\//.test(value) && value.includes('{query}')),
    'must be an http(s) URL with a {query} placeholder, e.g. http://searxng:8080/search?q={query}',
  ),
  SEARCH_TAVILY_KEY: optionalText,
  SEARCH_TAVILY_API_BASE: z.url('must be a URL').default('https://api.tavily.com'),
  SEARCH_QUERY_MODEL: z.string().trim().min(1, 'must not be empty').default('gpt-4o-mini'),
  // One Hub's price list, which its own installations follow; '' (set but empty) turns the service off.
  UPDATE_PRICE_SERVICE: z
    .string()
    .default('https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json')
    .transform((value) => value.trim())
    .refine((value) => value === '' || /^https?:\/\//.test(value), 'must be an http(s) URL, or empty'),
  AUTO_PRICE_UPDATES: booleanText.default(false),
  AUTO_PRICE_UPDATES_MODE: z
    .enum(['system', 'add', 'update', 'overwrite'], 'must be system, add, update or overwrite')
    .default('system'),
  AUTO_PRICE_UPDATES_INTERVAL: z.coerce.number('must be a number').int().min(1).default(1440),
  /** Seconds between two channels in a test of all channels, so upstreams are not hit in a burst. */
  POLLING_INTERVAL: z.coerce.number('must be a number').min(0).max(3600, 'must be at most 3600 seconds').default(0),
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number('must be a number')
    .min(0)
    .max(3600, 'must be at most 3600 seconds')
    .default(10),
  /** `off` runs without the crash journal: a killed process loses the last second's charges and logs. */
  JOURNAL: z.enum(['on', 'off'], 'must be on or off').default('on'),
  /** How often the crash journal is forced to disk; 0 = at every write (see docs/operations.md). */
  JOURNAL_FSYNC_MS: z.coerce
    .number('must be a number')
    .int('must be a whole number of milliseconds')
    .min(0)
    .max(60_000, 'must be at most 60000 milliseconds')
    .default(1000),
  UPSTREAM_CONNECT_TIMEOUT_MS: upstreamTimeout(10_000),
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: upstreamTimeout(120_000),
  UPSTREAM_ANSWER_TIMEOUT_MS: upstreamTimeout(300_000),
  UPSTREAM_IDLE_TIMEOUT_MS: upstreamTimeout(120_000),
  /** Worker processes sharing the port: a number, or `auto` for one per core. */
  WORKERS: z
    .string()
    .trim()
    .toLowerCase()
    .default('1')
    .refine((value) => value === 'auto' || /^\d+$/.test(value), 'must be a whole number of processes or auto')
    .transform((value) => (value === 'auto' ? availableParallelism() : Number(value)))
    .refine((value) => value >= 1 && value <= 64, 'must be between 1 and 64'),
  /** Set by the cluster's primary process on each worker it starts (0 is the first); not a user setting. */
  ONE_HUB_WORKER_INDEX: z.coerce.number().int().min(0).optional(),
  /** The MCP server at /mcp (reference `mcp.enable`); off: its paths answer 404. */
  MCP_ENABLE: booleanText.default(false),
  METRICS_USER: optionalText,
  METRICS_PASSWORD: optionalText.refine(
    (value) => value === undefined || value.length >= 8,
    'must be at least 8 characters',
  ),
  NOTIFY_EMAIL_SMTP_TO: optionalText,
  NOTIFY_EMAIL_DISABLE: booleanText.default(false),
  NOTIFY_WECOM_WEBHOOK: optionalUrl,
  NOTIFY_DINGTALK_TOKEN: optionalText,
  NOTIFY_DINGTALK_SECRET: optionalText,
  NOTIFY_DINGTALK_KEYWORD: optionalText,
  NOTIFY_DINGTALK_API_BASE: z.url('must be a URL').default('https://oapi.dingtalk.com'),
  NOTIFY_LARK_TOKEN: optionalText,
  NOTIFY_LARK_SECRET: optionalText,
  NOTIFY_LARK_KEYWORD: optionalText,
  NOTIFY_LARK_API_BASE: z.url('must be a URL').default('https://open.feishu.cn'),
  NOTIFY_PUSHDEER_PUSHKEY: optionalText,
  NOTIFY_PUSHDEER_URL: z.url('must be a URL').default('https://api2.pushdeer.com'),
  NOTIFY_TELEGRAM_BOT_API_KEY: optionalText,
  NOTIFY_TELEGRAM_CHAT_ID: optionalText,
  NOTIFY_TELEGRAM_HTTP_PROXY: optionalUrl,
  NOTIFY_TELEGRAM_API_BASE: z.url('must be a URL').default('https://api.telegram.org'),
  /** Payment vendors' servers: production by default, a sandbox or a local simulator when set. */
  PAYMENT_ALIPAY_GATEWAY: z.url('must be a URL').default(PRODUCTION_PAYMENT_ENDPOINTS.alipayGateway),
  PAYMENT_WXPAY_API_BASE: z.url('must be a URL').default(PRODUCTION_PAYMENT_ENDPOINTS.wxpayApiBase),
  PAYMENT_STRIPE_API_BASE: z.url('must be a URL').default(PRODUCTION_PAYMENT_ENDPOINTS.stripeApiBase),
  ...storageEnvironment,
  ...tracingEnvironment,
});

export type Environment = z.input<typeof environmentSchema>;

export interface Config {
  port: number;
  host: string;
  basePath: string;
  dataDir: string;
  sqlitePath: string;
  sqlDsn: string | undefined;
  redisUrl: string | undefined;
  sessionSecret: string;
  initialRootPassword: string | undefined;
  /** The root user's balance on the first start (the reference's 100 000 000 = $200 by default). */
  initialRootQuota: number;
  initialRootAccessToken: string | undefined;
  logLevel: (typeof logLevels)[number];
  /** `auto`: one readable line per event on a terminal, JSON lines otherwise (files, pipes, log shippers). */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Which peers may name the client in X-Forwarded-For: all (true), none, or these addresses and ranges. */
  trustProxy: boolean | string[];
  /** Secure flag of the session cookie: auto = when the request arrived over https as the server sees it. */
  cookieSecure: 'auto' | 'true' | 'false';
  /** `/api` failures answer HTTP 200 with `{success:false}` (but 401 and 429), for One Hub's console and scripts. */
  apiFailuresAs200: boolean;
  criticalRateLimit: { max: number; windowSeconds: number };
  /** Requests per client address per window to `/api` and to the console; 0 = no limit (reference §0.1). */
  globalRateLimit: { api: number; web: number; windowSeconds: number };
  /** Password sign-in attempts per account name (any address) before it is locked for the window; 0 = off. */
  signInFailureLimit: { max: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** Body limit of /api routes (API_BODY_LIMIT_BYTES, at most bodyLimitBytes). */
  apiBodyLimitBytes: number;
  /** How long a client may take to send headers, a whole request, and a whole /api request. */
  httpTimeouts: { headersMs: number; requestMs: number; apiRequestMs: number };
  /** Open connections one client address may hold (0: no cap); trusted proxies are not capped. */
  maxConnectionsPerAddress: number;
  /** Only the master node runs scheduled jobs; in a cluster, only its first worker can be it. */
  nodeType: 'master' | 'slave';
  /** Processes serving the port (WORKERS, `auto` resolved); more than one needs Redis. */
  workers: number;
  /** Which worker of the cluster this process is (0 is the first); undefined outside a cluster. */
  workerIndex: number | undefined;
  /** Credentials of GET /api/metrics (METRICS_USER, METRICS_PASSWORD); undefined: metrics off. */
  metrics: { user: string; password: string } | undefined;
  /** Whether /mcp serves the MCP server (MCP_ENABLE). */
  mcpEnabled: boolean;
  channelTestFrequencyMinutes: number;
  /** Asynchronous tasks: the poll interval and how long a task may stay unfinished. */
  tasks: { pollIntervalMs: number; timeoutMs: number };
  /** The Telegram bot; undefined when TG_BOT_API_KEY is not set. */
  telegramBot: TelegramBotConfig | undefined;
  /** The remote price list and whether (and how) the master node applies it on a schedule. */
  priceUpdates: PriceUpdateSettings;
  /** The searchers of `#search` chat models (SEARCH_*); `#search` is refused when neither is set. */
  webSearch: WebSearchConfig;
  /** Pause between two channels in a test of all channels (POLLING_INTERVAL). */
  pollingIntervalMs: number;
  /** At shutdown, how long relay requests in flight may run on before they are cut and billed. */
  shutdownGraceMs: number;
  /** The crash journal of settlements and log rows: its folder, and how often it is forced to disk (JOURNAL=off: none). */
  journal: { directory: string; fsyncIntervalMs: number } | undefined;
  /** How long an upstream may keep a relay request waiting, by phase (UPSTREAM_*_TIMEOUT_MS). */
  upstreamTimeouts: { connectMs: number; firstByteMs: number; answerMs: number; idleMs: number };
  notify: NotifyConfig;
  /** Image hosts for generated images answered as URLs (STORAGE_*); empty: none. */
  storage: StorageConfig;
  /** Where the payment vendors are (PAYMENT_*): production, a sandbox, or a local simulator in tests. */
  paymentEndpoints: GatewayEndpoints;
  /** OpenTelemetry traces (OTEL_*); undefined when no OTLP endpoint is set: tracing off, its SDK never loaded. */
  tracing: TracingConfig | undefined;
  version: string;
}

export interface TelegramBotConfig {
  /** The bot's token from @BotFather (TG_BOT_API_KEY). */
  token: string;
  /** TELEGRAM_API_ROOT */
  apiRoot: string;
  /** TG_WEBHOOK_SECRET: webhook mode (with the ServerAddress setting); polling without it. */
  webhookSecret?: string;
  /** TG_HTTP_PROXY */
  proxy?: string;
}

export interface WebSearchConfig {
  /** SEARCH_SEARXNG_URL: a SearXNG search URL with `{query}` where the query goes. */
  searxngUrl?: string;
  /** SEARCH_TAVILY_KEY and SEARCH_TAVILY_API_BASE. */
  tavily?: { key: string; apiBase: string };
  /** SEARCH_QUERY_MODEL: the model that turns the user's message into a search query. */
  queryModel: string;
}

export class ConfigError extends Error {}

/** A notifier is on when its required settings are present (reference §4.13). */
function notifyConfig(env: z.output<typeof environmentSchema>): NotifyConfig {
  const config: NotifyConfig = {
    email: {
      disabled: env.NOTIFY_EMAIL_DISABLE,
      ...(env.NOTIFY_EMAIL_SMTP_TO ? { to: env.NOTIFY_EMAIL_SMTP_TO } : {}),
    },
  };
  const optional = <Key extends string>(key: Key, value: string | undefined) => (value ? { [key]: value } : {});
  if (env.NOTIFY_WECOM_WEBHOOK) config.wecom = { webhook: env.NOTIFY_WECOM_WEBHOOK };
  if (env.NOTIFY_DINGTALK_TOKEN) {
    config.dingtalk = {
      token: env.NOTIFY_DINGTALK_TOKEN,
      apiBase: env.NOTIFY_DINGTALK_API_BASE,
      ...optional('secret', env.NOTIFY_DINGTALK_SECRET),
      ...optional('keyword', env.NOTIFY_DINGTALK_KEYWORD),
    };
  }
  if (env.NOTIFY_LARK_TOKEN) {
    config.lark = {
      token: env.NOTIFY_LARK_TOKEN,
      apiBase: env.NOTIFY_LARK_API_BASE,
      ...optional('secret', env.NOTIFY_LARK_SECRET),
      ...optional('keyword', env.NOTIFY_LARK_KEYWORD),
    };
  }
  if (env.NOTIFY_PUSHDEER_PUSHKEY)
    config.pushdeer = { pushkey: env.NOTIFY_PUSHDEER_PUSHKEY, url: env.NOTIFY_PUSHDEER_URL };
  if (env.NOTIFY_TELEGRAM_BOT_API_KEY && env.NOTIFY_TELEGRAM_CHAT_ID) {
    config.telegram = {
      botApiKey: env.NOTIFY_TELEGRAM_BOT_API_KEY,
      chatId: env.NOTIFY_TELEGRAM_CHAT_ID,
      apiBase: env.NOTIFY_TELEGRAM_API_BASE,
      ...optional('proxy', env.NOTIFY_TELEGRAM_HTTP_PROXY),
    };
  }
  return config;
}

const SESSION_SECRET_FILE = 'session-secret';

/** Reads the session secret from the data folder, creating it on first start. */
function telegramBotConfig(env: z.output<typeof environmentSchema>): TelegramBotConfig | undefined {
  if (!env.TG_BOT_API_KEY) return undefined;
  return {
    token: env.TG_BOT_API_KEY,
    apiRoot: env.TELEGRAM_API_ROOT,
    ...(env.TG_WEBHOOK_SECRET ? { webhookSecret: env.TG_WEBHOOK_SECRET } : {}),
    ...(env.TG_HTTP_PROXY ? { proxy: env.TG_HTTP_PROXY } : {}),
  };
}

function webSearchConfig(env: z.output<typeof environmentSchema>): WebSearchConfig {
  return {
    queryModel: env.SEARCH_QUERY_MODEL,
    ...(env.SEARCH_SEARXNG_URL ? { searxngUrl: env.SEARCH_SEARXNG_URL } : {}),
    ...(env.SEARCH_TAVILY_KEY ? { tavily: { key: env.SEARCH_TAVILY_KEY, apiBase: env.SEARCH_TAVILY_API_BASE } } : {}),
  };
}

function persistedSessionSecret(dataDir: string): string {
  const file = resolve(dataDir, SESSION_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) return stored;
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`SQLITE_PATH: cannot keep the session secret in the data folder ${dataDir}: ${reason}`);
  }
  return secret;
}

/** Settings that are each valid alone but not together. */
function clusterProblems(env: z.output<typeof environmentSchema>): string[] {
  const problems: string[] = [];
  // Without Redis each process would keep its own balances, limits and caches: quota could be spent twice.
  if (env.WORKERS > 1 && !env.REDIS_CONN_STRING) {
    problems.push(
      `WORKERS: ${env.WORKERS} worker processes need REDIS_CONN_STRING (they share balances, limits and caches through Redis); set WORKERS=1 or configure Redis`,
    );
  }
  if ((env.METRICS_USER === undefined) !== (env.METRICS_PASSWORD === undefined)) {
    const missing = env.METRICS_USER === undefined ? 'METRICS_USER' : 'METRICS_PASSWORD';
    problems.push(
      `${missing}: must be set together with ${missing === 'METRICS_USER' ? 'METRICS_PASSWORD' : 'METRICS_USER'} to turn metrics on`,
    );
  }
  return problems;
}

export function loadConfig(environment: Record<string, string | undefined> = process.env): Readonly<Config> {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  const problems = [...clusterProblems(env), ...storageProblems(env)];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const sqlitePath = resolve(env.SQLITE_PATH);
  const dataDir = dirname(sqlitePath);
  return Object.freeze({
    port: env.PORT,
    host: env.HOST,
    basePath: env.BASE_PATH,
    dataDir,
    sqlitePath,
    sqlDsn: env.SQL_DSN,
    redisUrl: env.REDIS_CONN_STRING,
    sessionSecret: env.SESSION_SECRET ?? persistedSessionSecret(dataDir),
    initialRootPassword: env.INITIAL_ROOT_PASSWORD,
    initialRootAccessToken: env.INITIAL_ROOT_ACCESS_TOKEN,
    initialRootQuota: env.INITIAL_ROOT_QUOTA,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    cookieSecure: env.COOKIE_SECURE,
    apiFailuresAs200: env.API_ERRORS_HTTP_200,
    criticalRateLimit: { max: env.CRITICAL_RATE_LIMIT, windowSeconds: env.CRITICAL_RATE_WINDOW_SECONDS },
    globalRateLimit: {
      api: env.GLOBAL_API_RATE_LIMIT,
      web: env.GLOBAL_WEB_RATE_LIMIT,
      windowSeconds: env.GLOBAL_RATE_WINDOW_SECONDS,
    },
    signInFailureLimit: { max: env.SIGN_IN_FAILURE_LIMIT, windowSeconds: env.SIGN_IN_FAILURE_WINDOW_SECONDS },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    apiBodyLimitBytes: Math.min(env.API_BODY_LIMIT_BYTES, env.BODY_LIMIT_BYTES),
    httpTimeouts: {
      headersMs: Math.min(env.HEADERS_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS),
      requestMs: env.REQUEST_TIMEOUT_MS,
      apiRequestMs: Math.min(env.API_REQUEST_TIMEOUT_MS, env.REQUEST_TIMEOUT_MS),
    },
    maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
    // Every worker would otherwise run the scheduled jobs: the first alone keeps NODE_TYPE.
    nodeType: (env.ONE_HUB_WORKER_INDEX ?? 0) > 0 ? 'slave' : env.NODE_TYPE,
    workers: env.WORKERS,
    workerIndex: env.ONE_HUB_WORKER_INDEX,
    metrics:
      env.METRICS_USER && env.METRICS_PASSWORD ? { user: env.METRICS_USER, password: env.METRICS_PASSWORD } : undefined,
    mcpEnabled: env.MCP_ENABLE,
    channelTestFrequencyMinutes: env.CHANNEL_TEST_FREQUENCY_MINUTES,
    tasks: { pollIntervalMs: env.TASK_POLL_INTERVAL_SECONDS * 1000, timeoutMs: env.TASK_TIMEOUT_MINUTES * 60_000 },
    telegramBot: telegramBotConfig(env),
    webSearch: webSearchConfig(env),
    priceUpdates: {
      serviceUrl: env.UPDATE_PRICE_SERVICE,
      auto: env.AUTO_PRICE_UPDATES,
      mode: env.AUTO_PRICE_UPDATES_MODE,
      intervalMinutes: env.AUTO_PRICE_UPDATES_INTERVAL,
    },
    pollingIntervalMs: env.POLLING_INTERVAL * 1000,
    shutdownGraceMs: env.SHUTDOWN_GRACE_SECONDS * 1000,
    journal:
      env.JOURNAL === 'off'
        ? undefined
        : { directory: join(dataDir, 'journal'), fsyncIntervalMs: env.JOURNAL_FSYNC_MS },
    upstreamTimeouts: {
      connectMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
      firstByteMs: env.UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
      answerMs: env.UPSTREAM_ANSWER_TIMEOUT_MS,
      idleMs: env.UPSTREAM_IDLE_TIMEOUT_MS,
    },
    notify: notifyConfig(env),
    storage: storageConfig(env),
    paymentEndpoints: {
      alipayGateway: env.PAYMENT_ALIPAY_GATEWAY,
      wxpayApiBase: env.PAYMENT_WXPAY_API_BASE,
      stripeApiBase: env.PAYMENT_STRIPE_API_BASE,
    },
    tracing: tracingConfig(env),
    version: versionOf(environment.npm_package_version ?? '0.1.0'),
  });
}

/**
 * The package version, and with a stamped build (`npm run build` writes the digest of its inputs
 * beside the bundle) the digest's first 8 digits after a `+`: every rebuilt server announces itself
 * as new, so an open console can tell it was updated even when the package version stayed.
 */
function versionOf(packageVersion: string): string {
  try {
    const stamp = readFileSync(new URL('./build-inputs.sha256', import.meta.url), 'utf8').trim();
    return /^[0-9a-f]{8}/.test(stamp) ? `${packageVersion}+${stamp.slice(0, 8)}` : packageVersion;
  } catch {
    return packageVersion;
  }
}
