import { type LoginUserView, parseStoredBudgets, type UserView } from '@one-hub/contracts';
import type { UserRow } from '../../platform/db/index.js';

/** Who the user is, as both the full view and the sign-in answer show it. */
function identity(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    status: row.status,
    avatar_url: row.avatar_url,
    password_change_required: Number(row.password_change_required) === 1,
  };
}

/** Everything about a user that may leave the server: no password hash, no access-token digest. */
export function toUserView(row: UserRow): UserView {
  return {
    ...identity(row),
    email: row.email,
    group: row.group,
    quota: Number(row.quota),
    used_quota: Number(row.used_quota),
    request_count: row.request_count,
    aff_code: row.aff_code,
    aff_count: Number(row.aff_count),
    aff_quota: Number(row.aff_quota),
    aff_history_quota: Number(row.aff_history),
    inviter_id: row.inviter_id,
    github_id: row.github_id,
    github_id_new: Number(row.github_id_new),
    wechat_id: row.wechat_id,
    lark_id: row.lark_id,
    oidc_id: row.oidc_id,
    telegram_id: Number(row.telegram_id),
    has_access_token: Boolean(row.access_token_hash),
    created_time: Number(row.created_time),
    last_login_time: Number(row.last_login_time),
    last_login_ip: row.last_login_ip,
    budgets: parseStoredBudgets(row.budgets),
  };
}

export function toLoginUserView(row: UserRow): LoginUserView {
  return identity(row);
}
