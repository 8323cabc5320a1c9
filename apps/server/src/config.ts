import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env. Everything is parsed and checked once at start-up; a wrong value
 * stops the process with a message that names the variable.
 */

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], 'must be true or false')
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

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
  INITIAL_ROOT_ACCESS_TOKEN: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || value.length >= 16, 'must be at least 16 characters'),
  LOG_LEVEL: z.enum(logLevels, `must be one of ${logLevels.join(', ')}`).default('info'),
  TRUST_PROXY: booleanText.default(false),
  CRITICAL_RATE_LIMIT: z.coerce.number('must be a number').int().min(0).default(20),
  CRITICAL_RATE_WINDOW_SECONDS: z.coerce.number('must be a number').int().min(1).default(1200),
  BODY_LIMIT_BYTES: z.coerce
    .number('must be a number')
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  NODE_TYPE: z.enum(['master', 'slave'], 'must be master or slave').default('master'),
  CHANNEL_TEST_FREQUENCY_MINUTES: z.coerce.number('must be a number').min(0).default(0),
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
  initialRootAccessToken: string | undefined;
  logLevel: (typeof logLevels)[number];
  trustProxy: boolean;
  criticalRateLimit: { max: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** Only the master node runs scheduled jobs. */
  nodeType: 'master' | 'slave';
  channelTestFrequencyMinutes: number;
  version: string;
}

export class ConfigError extends Error {}

const SESSION_SECRET_FILE = 'session-secret';

/** Reads the session secret from the data folder, creating it on first start. */
function persistedSessionSecret(dataDir: string): string {
  const file = resolve(dataDir, SESSION_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export function loadConfig(environment: Record<string, string | undefined> = process.env): Readonly<Config> {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
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
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    criticalRateLimit: { max: env.CRITICAL_RATE_LIMIT, windowSeconds: env.CRITICAL_RATE_WINDOW_SECONDS },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    nodeType: env.NODE_TYPE,
    channelTestFrequencyMinutes: env.CHANNEL_TEST_FREQUENCY_MINUTES,
    version: environment.npm_package_version ?? '0.1.0',
  });
}
