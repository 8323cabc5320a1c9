import type { RedemptionStatus, RedemptionView } from '@one-hub/contracts';
import type { RedemptionRow } from '../../platform/db/index.js';

/** What leaves the server about a code: the code itself (administrators only), never its digest or cipher. */
export function toRedemptionView(row: RedemptionRow, key: string, redeemedUsername: string): RedemptionView {
  return {
    id: row.id,
    user_id: row.user_id,
    key,
    status: row.status as RedemptionStatus,
    name: row.name,
    quota: Number(row.quota),
    created_time: Number(row.created_time),
    redeemed_time: Number(row.redeemed_time),
    redeemed_user_id: row.redeemed_user_id,
    redeemed_username: redeemedUsername,
  };
}
