/**
 * Row translations one-api and new-api share: new-api is a fork of one-api and kept its users,
 * tokens, redemptions and logs tables, adding columns. Each profile passes what differs.
 */
import type { LegacyLog, LegacyRedemption, LegacyToken, LegacyUser, SourceRow } from '../legacy.js';
import { toBool, toInteger, toText } from './values.js';

/** Fields of a user that differ between the two products (bindings they added, soft delete). */
export interface UserExtras {
  status: number;
  deleted_at: number | null;
  telegram_id: number;
  lark_id: string;
  aff_count: number;
  aff_quota: number;
  aff_history: number;
  created_time: number;
  last_login_time: number;
}

/**
 * The user columns all three products share and read alike. All use One Hub's numbers: roles
 * 1 common / 10 admin / 100 root; bcrypt hashes from Go's x/crypto/bcrypt ($2a$) verify as they are.
 */
export function sharedUserColumns(row: SourceRow) {
  return {
    id: toInteger(row.id),
    username: toText(row.username),
    password: toText(row.password),
    display_name: toText(row.display_name),
    role: toInteger(row.role, 1),
    email: toText(row.email),
    oidc_id: toText(row.oidc_id),
    github_id: toText(row.github_id),
    wechat_id: toText(row.wechat_id),
    access_token: toText(row.access_token).trim(),
    quota: toInteger(row.quota),
    used_quota: toInteger(row.used_quota),
    request_count: toInteger(row.request_count),
    aff_code: toText(row.aff_code),
    inviter_id: toInteger(row.inviter_id),
  };
}

/** A one-api or new-api user; status uses One Hub's numbers (1 enabled / 2 disabled). */
export function familyUser(row: SourceRow, extras: UserExtras): LegacyUser {
  return {
    ...sharedUserColumns(row),
    avatar_url: '',
    // Neither product stores GitHub's numeric id; One Hub falls back to matching the login.
    github_id_new: 0,
    group: toText(row.group).trim() || 'default',
    last_login_ip: '',
    ...extras,
  };
}

/**
 * One Hub's token `setting` for a key's model and IP whitelists (an empty list means no limit).
 * IP entries may be addresses or CIDR ranges, as both sources allow.
 */
export function keySetting(models: string[], ips: string[]): LegacyToken['setting'] {
  return {
    limits: {
      limit_model_setting: { enabled: models.length > 0, models },
      limits_ip_setting: { enabled: ips.length > 0, whitelist: ips },
    },
  };
}

/** The token columns all three products have, with their GORM defaults applied to zero values. */
export function familyToken(row: SourceRow, group: string, setting: unknown, deletedAt: number | null): LegacyToken {
  const expired = toInteger(row.expired_time, -1);
  return {
    id: toInteger(row.id),
    user_id: toInteger(row.user_id),
    // Both store the 48-character body without `sk-`; One Hub accepts such legacy keys as they are.
    key: toText(row.key).trim().replace(/^sk-/, ''),
    status: toInteger(row.status, 1) || 1,
    name: toText(row.name),
    created_time: toInteger(row.created_time),
    accessed_time: toInteger(row.accessed_time),
    expired_time: expired === 0 ? -1 : expired,
    remain_quota: toInteger(row.remain_quota),
    unlimited_quota: toBool(row.unlimited_quota),
    used_quota: toInteger(row.used_quota),
    group,
    backup_group: '',
    setting,
    deleted_at: deletedAt,
  };
}

/** Redemption codes: same statuses everywhere (1 enabled, 2 disabled, 3 used). */
export function familyRedemption(row: SourceRow, status: number, redeemedUserId: number): LegacyRedemption {
  return {
    id: toInteger(row.id),
    user_id: toInteger(row.user_id),
    key: toText(row.key).trim(),
    status,
    name: toText(row.name),
    quota: toInteger(row.quota, 100),
    created_time: toInteger(row.created_time),
    redeemed_time: toInteger(row.redeemed_time),
    redeemed_user_id: redeemedUserId,
  };
}

/** Log types 1 top-up, 2 consume, 3 manage and 4 system mean the same in all three products. */
export const ONE_HUB_LOG_TYPES = new Set([0, 1, 2, 3, 4]);

/** The log columns all three products have; the caller gives what they store differently. */
export function familyLog(
  row: SourceRow,
  parts: Pick<LegacyLog, 'type' | 'request_time' | 'source_ip' | 'metadata'>,
): LegacyLog {
  return {
    id: toInteger(row.id),
    user_id: toInteger(row.user_id),
    created_at: toInteger(row.created_at),
    content: toText(row.content),
    username: toText(row.username),
    token_name: toText(row.token_name),
    model_name: toText(row.model_name),
    quota: toInteger(row.quota),
    prompt_tokens: toInteger(row.prompt_tokens),
    completion_tokens: toInteger(row.completion_tokens),
    channel_id: toInteger(row.channel_id),
    is_stream: toBool(row.is_stream),
    ...parts,
  };
}
