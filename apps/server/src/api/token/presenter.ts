import type { AdminTokenView, TokenStatus, TokenView } from '@one-hub/contracts';
import { type TokenRow, toBoolean } from '../../platform/db/index.js';
import { readTokenSetting, visibleSetting } from './setting.js';

/**
 * What leaves the server about a token. `key` is decided by the caller and never carries `sk-`
 * (reference §1.7): the full key to its owner, the masked form in every administrator's view.
 * Hash and cipher never leave; the billing tag only to reliable users (role 3) and above.
 */
export function toTokenView(row: TokenRow, key: string, showBillingTag: boolean): TokenView {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    key,
    status: row.status as TokenStatus,
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: toBoolean(row.unlimited_quota),
    used_quota: Number(row.used_quota),
    group: row.group,
    backup_group: row.backup_group,
    setting: visibleSetting(readTokenSetting(row.setting), showBillingTag),
  };
}

export function toAdminTokenView(row: TokenRow, key: string, ownerName: string): AdminTokenView {
  return { ...toTokenView(row, key, true), owner_name: ownerName };
}
