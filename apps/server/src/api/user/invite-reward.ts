import { INVITER_REWARD_CONDITIONS, type InviterRewardCondition, LogType } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { logQuota } from '../log/format.js';
import type { LogRepository } from '../log/repo.js';
import type { OptionService } from '../option/service.js';
import type { UserRepository } from './repo.js';

/** A reward that was paid: who got how much, so cached balances can follow once the transaction commits. */
export interface PaidReward {
  inviterId: number;
  quota: number;
}

/**
 * The inviter's reward (`QuotaForInviter`). A user registered with an invite code carries
 * `inviter_reward_pending = 1`; the reward is paid when `InviterRewardCondition` is met (first
 * top-up, a verified e-mail, or registration itself), by one conditional update that clears the
 * flag. Of any number of racing events exactly one clears it, so the inviter is paid at most once.
 */
export class InviteRewards {
  constructor(
    private readonly users: UserRepository,
    private readonly logs: LogRepository,
    private readonly options: OptionService,
    private readonly onQuotaChanged: (userId: number, delta: number) => void,
  ) {}

  condition(): InviterRewardCondition {
    const value = this.options.get('InviterRewardCondition').trim();
    return (INVITER_REWARD_CONDITIONS as readonly string[]).includes(value)
      ? (value as InviterRewardCondition)
      : 'first_topup';
  }

  /** Whether a new account's registration meets the condition by itself. */
  paysAtRegistration(emailVerified: boolean): boolean {
    const condition = this.condition();
    return condition === 'registration' || (condition === 'email_verified' && emailVerified);
  }

  /** Inside the transaction of a top-up: pays when the condition is the first top-up. */
  async onTopUp(executor: Executor, inviteeId: number): Promise<PaidReward | undefined> {
    return this.condition() === 'first_topup' ? this.payIfPending(executor, inviteeId) : undefined;
  }

  /** After the invitee proved an address with an e-mail code: pays when that is the condition. */
  async onEmailVerified(inviteeId: number): Promise<void> {
    if (this.condition() !== 'email_verified') return;
    const paid = await this.users.db.transaction().execute((transaction) => this.payIfPending(transaction, inviteeId));
    this.notify(paid);
  }

  /**
   * Clears the pending flag and, if this call cleared it, credits the inviter (balance and its
   * `aff_quota`/`aff_history_quota` counters, in one statement) and logs it in the same transaction. Nothing is paid when the amount is 0 or the inviter is gone; the flag still clears.
   */
  async payIfPending(executor: Executor, inviteeId: number): Promise<PaidReward | undefined> {
    const cleared = await executor
      .updateTable('users')
      .set({ inviter_reward_pending: 0 })
      .where('id', '=', inviteeId)
      .where('inviter_reward_pending', '=', 1)
      .executeTakeFirst();
    if (Number(cleared.numUpdatedRows) !== 1) return undefined;
    const invitee = await this.users.findById(inviteeId, executor);
    const quota = this.options.getNumber('QuotaForInviter');
    if (!invitee?.inviter_id || quota <= 0) return undefined;
    if (!(await this.users.addInviteReward(invitee.inviter_id, quota, executor))) return undefined;
    const inviter = await this.users.findById(invitee.inviter_id, executor);
    await this.logs.insert(executor, {
      userId: invitee.inviter_id,
      username: inviter?.username ?? '',
      type: LogType.system,
      quota,
      content: `邀请用户赠送 ${logQuota(quota, this.options)}`,
      event: { event: 'inviter_reward', quota },
    });
    return { inviterId: invitee.inviter_id, quota };
  }

  /** Tells cached balances about a committed reward. */
  notify(paid: PaidReward | undefined): void {
    if (paid) this.onQuotaChanged(paid.inviterId, paid.quota);
  }
}
