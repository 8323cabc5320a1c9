import {
  defaultTokenSetting,
  HEARTBEAT_MAX_SECONDS,
  HEARTBEAT_MIN_SECONDS,
  parseJson,
  parseStoredBudgets,
  parseStoredFallbacks,
  type TokenSetting,
  tokenSettingSchema,
} from '@one-hub/contracts';
import { z } from 'zod';

const flag = z.boolean().catch(false);
const count = z.number().int().min(0).catch(0);
const strings = z
  .array(z.unknown())
  .catch([])
  .transform((values) => values.filter((value): value is string => typeof value === 'string'));

/**
 * Reads settings stored by older versions or edited by hand: every part that is unreadable falls
 * back to its default instead of failing the request that needs the key. Whitelist entries are
 * kept as written, so a broken entry matches nothing rather than opening the key to everyone.
 */
const lenientSetting = z
  .object({
    heartbeat: z
      .object({
        enabled: flag,
        timeout_seconds: z
          .number()
          .catch(HEARTBEAT_MIN_SECONDS)
          .transform((seconds) =>
            Math.min(HEARTBEAT_MAX_SECONDS, Math.max(HEARTBEAT_MIN_SECONDS, Math.round(seconds))),
          ),
      })
      .catch(() => defaultTokenSetting().heartbeat),
    chat_cache: z.boolean().catch(true),
    limits: z
      .object({
        limit_model_setting: z
          .object({ enabled: flag, models: strings })
          .catch(() => defaultTokenSetting().limits.limit_model_setting),
        limits_ip_setting: z
          .object({ enabled: flag, whitelist: strings })
          .catch(() => defaultTokenSetting().limits.limits_ip_setting),
        rpm: count,
        concurrency: count,
        tpm: count,
      })
      .catch(() => defaultTokenSetting().limits),
    budgets: z
      .unknown()
      .optional()
      .transform((value) => parseStoredBudgets(value)),
    fallbacks: z
      .unknown()
      .optional()
      .transform((value) => parseStoredFallbacks(value)),
    billing_tag: z.string().optional().catch(undefined),
  })
  .catch(() => defaultTokenSetting());

/**
 * The stored JSON text of `tokens.setting` as a complete setting with defaults filled in. Writes
 * refuse keys the schema does not know; a setting stored with some (an older version, a hand edit)
 * is read by the lenient schema, which drops them and keeps the rest.
 */
export function readTokenSetting(json: string): TokenSetting {
  const value = parseJson(json) ?? {};
  const strict = tokenSettingSchema.safeParse(value);
  return strict.success ? strict.data : lenientSetting.parse(value);
}

export function writeTokenSetting(setting: TokenSetting): string {
  return JSON.stringify(setting);
}

/**
 * The setting a write stores, billing tag settled: only a reliable user (role 3) or above sets
 * it; a setting sent without one keeps the stored tag (a console that does not know the field
 * cannot erase it), and an empty one clears it.
 */
export function withBillingTag(setting: TokenSetting, mayTag: boolean, storedTag: string | undefined): TokenSetting {
  const { billing_tag: sent, ...rest } = setting;
  const tag = mayTag && sent !== undefined ? sent : storedTag;
  return tag ? { ...rest, billing_tag: tag } : rest;
}

/** What a caller below reliable may see of a setting: everything but the billing tag. */
export function visibleSetting(setting: TokenSetting, showBillingTag: boolean): TokenSetting {
  if (showBillingTag || setting.billing_tag === undefined) return setting;
  const { billing_tag: _hidden, ...rest } = setting;
  return rest;
}
