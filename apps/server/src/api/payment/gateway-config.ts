import type { PaymentGateway } from '../../payments/gateway.js';
import { AppError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secret-box.js';

const MASK = '••••';

/**
 * A gateway's `config` column: the reference's JSON text, with each secret field's value sealed by
 * the SecretBox (`v1:…`) so a database dump holds no usable merchant key, while the column stays
 * JSON any tool can read. A value that does not open (an imported One Hub row keeps them plain) is
 * used as it is. Secrets leave the server only masked.
 */
export class GatewayConfigs {
  constructor(private readonly box: SecretBox) {}

  /** Validates what the administrator sent, keeping stored secrets where the field came back masked or empty. */
  parse(gateway: PaymentGateway, text: string, stored?: string): Record<string, unknown> {
    const sent = parseObject(text, 'config');
    const previous = stored === undefined ? {} : this.open(gateway, stored);
    for (const field of gateway.secretFields) {
      const value = sent[field];
      if (value === undefined || value === '' || (typeof value === 'string' && value.includes(MASK))) {
        if (previous[field] !== undefined) sent[field] = previous[field];
      }
    }
    const parsed = gateway.configSchema.safeParse(sent);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      const message = issue?.message ?? 'is invalid';
      throw AppError.badRequest(`config: ${message.startsWith(path) ? message : `${path} ${message}`.trim()}`);
    }
    return parsed.data as Record<string, unknown>;
  }

  /** The column's text for a validated config. */
  seal(gateway: PaymentGateway, config: Record<string, unknown>): string {
    const sealed = { ...config };
    for (const field of gateway.secretFields) {
      const value = sealed[field];
      if (typeof value === 'string' && value !== '') sealed[field] = this.box.seal(value);
    }
    return JSON.stringify(sealed);
  }

  /** The config a gateway works with: secrets opened. Throws a 400 only for text that is not a JSON object. */
  open(gateway: PaymentGateway, text: string): Record<string, unknown> {
    const config = parseObject(text, 'stored config');
    for (const field of gateway.secretFields) {
      const value = config[field];
      if (typeof value !== 'string' || !value.startsWith('v1:')) continue;
      try {
        config[field] = this.box.open(value);
      } catch {
        // Not sealed by this server (an imported plain value that happens to start with "v1:"): keep it.
      }
    }
    return config;
  }

  /**
   * The config fields (`config.<name>`) whose value `next` would change: a secret sent back masked or
   * empty keeps the stored one, so it counts as unchanged. Both sides go through the schema so that
   * the same settings written two ways (a trailing slash, a default left out) compare equal.
   */
  changedFields(gateway: PaymentGateway, next: Record<string, unknown>, stored: string): string[] {
    const current = this.open(gateway, stored);
    const normalised = gateway.configSchema.safeParse(current);
    const before: Record<string, unknown> = normalised.success ? (normalised.data as Record<string, unknown>) : current;
    const names = new Set([...Object.keys(before), ...Object.keys(next)]);
    return [...names]
      .filter((name) => JSON.stringify(before[name] ?? '') !== JSON.stringify(next[name] ?? ''))
      .map((name) => `config.${name}`);
  }

  /** The column's text as an administrator may see it: every secret masked. */
  masked(gateway: PaymentGateway | undefined, text: string): string {
    let config: Record<string, unknown>;
    try {
      config = gateway ? this.open(gateway, text) : parseObject(text, 'config');
    } catch {
      return '{}';
    }
    for (const field of gateway?.secretFields ?? []) {
      const value = config[field];
      if (typeof value === 'string' && value !== '') config[field] = maskSecret(value);
    }
    // A type this server cannot handle: its fields are unknown, so nothing of it is shown.
    return gateway ? JSON.stringify(config) : '{}';
  }
}

/**
 * `sk_live_abcdef123456` → `••••3456`: the last four characters, enough to tell two keys apart and
 * too few to use. A secret under 12 characters shows nothing, since four would be a third of it.
 */
export function maskSecret(value: string): string {
  if (value.length < 12) return `${MASK}${MASK}`;
  return `${MASK}${value.slice(-4)}`;
}

function parseObject(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    throw AppError.badRequest(`${name} must be a JSON object text, such as {"key":"value"}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw AppError.badRequest(`${name} must be a JSON object text, such as {"key":"value"}`);
  }
  return value as Record<string, unknown>;
}
