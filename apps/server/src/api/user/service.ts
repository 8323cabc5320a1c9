import {
  type AdminCreateUserBody,
  type AdminUpdateUserBody,
  DEFAULT_GROUP,
  isRootRole,
  type KeywordPageQuery,
  LogType,
  MAX_QUOTA,
  type ManageUserBody,
  type Paged,
  type QuotaChangeBody,
  Role,
  UserStatus,
  type UserView,
} from '@one-hub/contracts';
import type { ChangeBus } from '../../platform/changes.js';
import { nowSeconds } from '../../platform/clock.js';
import { type Executor, isUniqueViolation, type UserRow, type UserUpdate } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword } from '../../platform/password.js';
import { logQuota } from '../log/format.js';
import type { LogRepository } from '../log/repo.js';
import type { OptionService } from '../option/service.js';
import type { UserGroupService } from '../user-group/service.js';
import { recordBalanceChange, recordUserChange } from './audit.js';
import { InviteRewards, type PaidReward } from './invite-reward.js';
import { applyManageAction, manageAuditAction } from './manage.js';
import { toUserView } from './presenter.js';
import { assertOutranks, refuseOwnAccessChange } from './rank.js';
import type { UserRepository } from './repo.js';

export interface NewAccount {
  username: string;
  password: string;
  displayName?: string | undefined;
  email?: string | undefined;
  group?: string | undefined;
  role?: Role;
  inviterId?: number | undefined;
  /** True when the address was proved (an e-mail code, or a provider that verified it). */
  emailVerified?: boolean | undefined;
  accessTokenHash?: string | undefined;
  sourceIp?: string | undefined;
  /** The first administrator's starting balance (INITIAL_ROOT_QUOTA), instead of `QuotaForNewUser`. */
  initialQuota?: number | undefined;
}

export class UserService {
  /** Pays inviters when `InviterRewardCondition` is met; registration, top-ups and e-mail binding call it. */
  readonly inviteRewards: InviteRewards;

  constructor(
    private readonly users: UserRepository,
    private readonly logs: LogRepository,
    private readonly groups: UserGroupService,
    private readonly options: OptionService,
    private readonly changes: ChangeBus,
  ) {
    this.inviteRewards = new InviteRewards(users, logs, options, (id, delta) => this.quotaChanged(id, delta));
  }

  /** After a user's status, role, group or password changes, or they are deleted: cached copies follow at once. */
  userChanged(userId: number): void {
    void this.changes.publish('users', { id: userId });
  }

  /** After a balance moves outside the relay by `delta`: cached balances follow at once. */
  quotaChanged(userId: number, delta: number): void {
    void this.changes.publish('quota', { userId, delta });
  }

  /**
   * Creates a user with the new-user gift and invite rewards, all in one transaction; `within` adds
   * the caller's own writes (an administrator's budgets, the audit row) to that transaction.
   */
  async createAccount(
    account: NewAccount,
    within?: (transaction: Executor, id: number) => Promise<void>,
  ): Promise<UserRow> {
    if (await this.users.isUsernameTaken(account.username)) {
      throw AppError.conflict(`'${account.username}' is already taken`, 'username');
    }
    if (account.email && (await this.users.isEmailTaken(account.email))) {
      throw AppError.conflict('email: this e-mail address is already in use');
    }
    const group = account.group ?? DEFAULT_GROUP;
    await this.groups.requireUsable(group);
    const password = await hashPassword(account.password);
    const affCode = await this.users.unusedAffCode();
    const giftQuota = account.initialQuota ?? this.options.getNumber('QuotaForNewUser');
    const inviteeQuota = account.inviterId ? this.options.getNumber('QuotaForInvitee') : 0;
    let reward: PaidReward | undefined;
    try {
      const id = await this.users.db.transaction().execute(async (transaction) => {
        const newId = await this.users.insert(
          {
            username: account.username,
            password,
            display_name: account.displayName || account.username,
            role: account.role ?? Role.common,
            status: UserStatus.enabled,
            email: account.email ?? '',
            email_verified: account.email && account.emailVerified ? 1 : 0,
            inviter_reward_pending: account.inviterId ? 1 : 0,
            avatar_url: '',
            oidc_id: '',
            github_id: '',
            github_id_new: 0,
            wechat_id: '',
            lark_id: '',
            telegram_id: 0,
            access_token_hash: account.accessTokenHash ?? null,
            quota: Math.min(giftQuota + inviteeQuota, MAX_QUOTA),
            used_quota: 0,
            request_count: 0,
            group,
            aff_code: affCode,
            inviter_id: account.inviterId ?? 0,
            last_login_time: 0,
            last_login_ip: '',
            created_time: nowSeconds(),
            deleted_at: null,
          },
          transaction,
        );
        if (account.inviterId) await this.users.countInvitee(account.inviterId, transaction);
        const system = { userId: newId, username: account.username, type: LogType.system, sourceIp: account.sourceIp };
        if (giftQuota > 0) {
          await this.logs.insert(transaction, {
            ...system,
            quota: giftQuota,
            content:
              account.initialQuota === undefined
                ? `新用户注册赠送 ${logQuota(giftQuota, this.options)}`
                : `初始管理员额度 ${logQuota(giftQuota, this.options)}`,
            event: {
              event: account.initialQuota === undefined ? 'signup_gift' : 'root_initial_quota',
              quota: giftQuota,
            },
          });
        }
        if (inviteeQuota > 0) {
          await this.logs.insert(transaction, {
            ...system,
            quota: inviteeQuota,
            content: `使用邀请码赠送 ${logQuota(inviteeQuota, this.options)}`,
            event: { event: 'invitee_gift', quota: inviteeQuota },
          });
        }
        const emailVerified = Boolean(account.email && account.emailVerified);
        if (account.inviterId && this.inviteRewards.paysAtRegistration(emailVerified)) {
          reward = await this.inviteRewards.payIfPending(transaction, newId);
        }
        await within?.(transaction, newId);
        return newId;
      });
      this.inviteRewards.notify(reward);
      return (await this.users.findById(id)) as UserRow;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(`'${account.username}' is already taken`, 'username');
      throw error;
    }
  }

  /** The users `caller` may manage, and itself: an admin does not see root's or another admin's row. */
  async list(caller: UserRow, paging: KeywordPageQuery): Promise<Paged<UserView>> {
    const page = await this.users.list(caller, paging);
    return { ...page, data: page.data.map(toUserView) };
  }

  async requireUser(id: number): Promise<UserRow> {
    const user = await this.users.findById(id);
    if (!user) throw AppError.notFound(`user ${id} not found`);
    return user;
  }

  async get(caller: UserRow, id: number): Promise<UserView> {
    const target = await this.requireUser(id);
    if (caller.id !== target.id) assertOutranks(caller, target);
    return toUserView(target);
  }

  async adminCreate(body: AdminCreateUserBody): Promise<UserView> {
    const account = {
      username: body.username,
      password: body.password,
      displayName: body.display_name,
      group: body.group,
    };
    const user = await this.createAccount(account, async (transaction, id) => {
      if (body.budgets && body.budgets.length > 0) {
        await this.users.update(id, { budgets: JSON.stringify(body.budgets) }, transaction);
      }
      const after = await this.users.findById(id, transaction);
      await recordUserChange(transaction, { action: 'create', after, passwordSet: true });
    });
    return toUserView(user);
  }

  /**
   * An administrator's edit of a user it outranks, or of itself. `sent` is the body as it came,
   * to see fields the schema does not take (role, quota) that a caller tried to set on itself.
   */
  async adminUpdate(caller: UserRow, body: AdminUpdateUserBody, sent: unknown = {}): Promise<UserView> {
    const target = await this.requireUser(body.id);
    if (caller.id === target.id) refuseOwnAccessChange(target, body, sent);
    else assertOutranks(caller, target);
    const patch = await this.editPatch(target, body);
    if (Object.keys(patch).length > 0) {
      try {
        await this.users.db.transaction().execute(async (transaction) => {
          const before = await this.users.findById(target.id, transaction);
          const { password, ...rest } = patch;
          if (password) await this.users.setPassword(target.id, password, rest, transaction);
          else await this.users.update(target.id, patch, transaction);
          const after = await this.users.findById(target.id, transaction);
          await recordUserChange(transaction, { action: 'update', before, after, passwordSet: Boolean(password) });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.conflict('this username is already taken', 'username');
        throw error;
      }
      this.userChanged(target.id);
    }
    return toUserView(await this.requireUser(target.id));
  }

  private async editPatch(target: UserRow, body: AdminUpdateUserBody): Promise<UserUpdate> {
    const patch: UserUpdate = {};
    if (body.username !== undefined && body.username !== target.username) {
      if (await this.users.isUsernameTaken(body.username, target.id)) {
        throw AppError.conflict(`'${body.username}' is already taken`, 'username');
      }
      patch.username = body.username;
    }
    if (body.display_name !== undefined) patch.display_name = body.display_name;
    if (body.email !== undefined && body.email !== target.email) {
      if (body.email && (await this.users.isEmailTaken(body.email, target.id))) {
        throw AppError.conflict('email: this e-mail address is already in use');
      }
      patch.email = body.email;
      // An address an administrator types in was not proved by its owner.
      patch.email_verified = 0;
    }
    if (body.group !== undefined && body.group !== target.group) {
      await this.groups.requireUsable(body.group);
      patch.group = body.group;
    }
    if (body.budgets !== undefined) patch.budgets = JSON.stringify(body.budgets);
    if (body.password) patch.password = await hashPassword(body.password);
    return patch;
  }

  async manage(caller: UserRow, body: ManageUserBody): Promise<{ role: number; status: number }> {
    const target = await this.users.findByUsername(body.username);
    if (!target) throw AppError.notFound(`user '${body.username}' not found`);
    if (isRootRole(target.role))
      throw AppError.forbidden('a root user cannot be disabled, deleted, promoted or demoted');
    assertOutranks(caller, target);
    const result = await this.users.db.transaction().execute(async (transaction) => {
      const applied = await applyManageAction(this.users, { caller, target, action: body.action }, transaction);
      const after = await this.users.findById(target.id, transaction);
      await recordUserChange(transaction, {
        action: manageAuditAction(body.action, target, applied),
        before: target,
        after,
      });
      return applied;
    });
    this.userChanged(target.id);
    return result;
  }

  async delete(caller: UserRow, id: number): Promise<void> {
    const target = await this.requireUser(id);
    if (isRootRole(target.role)) throw AppError.forbidden('a root user cannot be deleted');
    assertOutranks(caller, target);
    await this.users.db.transaction().execute(async (transaction) => {
      await this.users.softDelete(target, transaction);
      await recordUserChange(transaction, { action: 'delete', before: target });
    });
    this.userChanged(target.id);
  }

  /**
   * Adds or subtracts quota atomically and records it, with the operator's id and address, in a
   * manage log of the target, in one transaction.
   */
  async changeQuota(caller: UserRow, id: number, body: QuotaChangeBody, sourceIp: string): Promise<UserView> {
    const target = await this.requireUser(id);
    assertOutranks(caller, target);
    await this.users.db.transaction().execute(async (transaction) => {
      if (!(await this.users.addQuota(id, body.quota, transaction))) {
        throw AppError.badRequest(
          body.quota < 0
            ? `quota: the user's balance is too small to subtract ${-body.quota}`
            : `quota: adding ${body.quota} would take the user's balance past the maximum of ${MAX_QUOTA}`,
        );
      }
      // Read back in the transaction that holds the row: the balance right after this change.
      const quota = Number((await this.users.findById(id, transaction))?.quota ?? 0);
      await recordBalanceChange(transaction, target, { before: quota - body.quota, after: quota }, body.remark);
      const remark = body.remark ? `, 备注: ${body.remark}` : '';
      // The row is the target's; the operator's id (not its name, the target reads this row too) says who.
      await this.logs.insert(transaction, {
        userId: target.id,
        username: target.username,
        type: LogType.manage,
        quota: body.quota,
        sourceIp,
        content: `管理员增减用户额度 ${logQuota(body.quota, this.options)}, 操作者 #${caller.id}${remark}`,
        event: {
          event: 'admin_quota',
          quota: body.quota,
          operator_id: caller.id,
          ...(body.remark ? { remark: body.remark } : {}),
        },
      });
    });
    this.quotaChanged(id, body.quota);
    return toUserView(await this.requireUser(id));
  }
}
