import { type LogEvent, LogType, MAX_QUOTA, type UserGroupView } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { LogRepository } from '../log/repo.js';
import type { OptionService } from '../option/service.js';
import type { InviteRewards, PaidReward } from '../user/invite-reward.js';
import type { UserRepository } from '../user/repo.js';
import { promotionTarget } from './promotion.js';

export interface TopUpCreditDeps {
  users: UserRepository;
  logs: LogRepository;
  options: OptionService;
  /** A top-up may meet the condition of the payer's inviter's reward. */
  inviteRewards?: InviteRewards | undefined;
  /** Told after the transaction commits, so cached balances (the relay's) follow. */
  onQuotaChanged: (userId: number, delta: number) => void;
}

export interface TopUp {
  user: { id: number; username: string };
  quota: number;
  sourceIp: string;
  /** The top-up log row's text, and the same in structured form. */
  content: string;
  event: LogEvent;
  /** Read before the transaction: on SQLite it holds the only connection until it ends. */
  groups: readonly UserGroupView[];
  /** Names what was not done when the balance cannot take the top-up ("nothing was redeemed"). */
  refusal: string;
}

/**
 * Credits a top-up (a redemption code or a paid order) inside the caller's transaction: the
 * balance (conditional on staying within MAX_QUOTA), the top-up log row, promotion into a group
 * (reference §4.11, counted once) and the inviter's reward. Throws, rolling everything back, when
 * the account is gone or the balance would pass the maximum. Call `announceTopUp` after commit.
 */
export async function creditTopUp(
  deps: TopUpCreditDeps,
  executor: Executor,
  topUp: TopUp,
): Promise<PaidReward | undefined> {
  const { user, quota } = topUp;
  if (!(await deps.users.addQuota(user.id, quota, executor))) {
    if (!(await deps.users.findById(user.id, executor))) throw AppError.notFound('your account no longer exists');
    throw AppError.conflict(
      `quota: this top-up would take your balance past the maximum of ${MAX_QUOTA}; ${topUp.refusal}`,
    );
  }
  await deps.logs.insert(executor, {
    userId: user.id,
    username: user.username,
    type: LogType.topup,
    quota,
    sourceIp: topUp.sourceIp,
    content: topUp.content,
    event: topUp.event,
  });
  await promote(deps, executor, user.id, topUp.groups);
  return deps.inviteRewards?.onTopUp(executor, user.id);
}

/** After the top-up's transaction committed: cached balances follow the credit and the reward. */
export function announceTopUp(deps: TopUpCreditDeps, userId: number, quota: number, reward: PaidReward | undefined) {
  deps.onQuotaChanged(userId, quota);
  deps.inviteRewards?.notify(reward);
}

/** Moves the user into the promotion group their cumulative recharge now qualifies for, if any. */
async function promote(
  deps: TopUpCreditDeps,
  executor: Executor,
  userId: number,
  groups: readonly UserGroupView[],
): Promise<void> {
  const user = await deps.users.findById(userId, executor);
  if (!user) return;
  const target = promotionTarget(
    groups,
    user.group,
    Number(user.quota) + Number(user.used_quota),
    deps.options.getNumber('QuotaPerUnit'),
  );
  if (target) await deps.users.update(userId, { group: target.symbol }, executor);
}
