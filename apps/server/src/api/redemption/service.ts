import { randomUUID } from 'node:crypto';
import {
  type CreateRedemptionBody,
  isAdminRole,
  type Paged,
  type RedemptionListQuery,
  RedemptionStatus,
  type RedemptionStatusBody,
  type RedemptionView,
  type UpdateRedemptionBody,
  type UserGroupView,
} from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Executor, RedemptionRow, UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { recordRowChange } from '../audit/row-change.js';
import { logQuota } from '../log/format.js';
import type { LogRepository } from '../log/repo.js';
import type { OptionService } from '../option/service.js';
import type { InviteRewards, PaidReward } from '../user/invite-reward.js';
import type { UserRepository } from '../user/repo.js';
import { CODE_AUDIT, recordCodesCreated } from './audit.js';
import { announceTopUp, creditTopUp } from './credit.js';
import { toRedemptionView } from './presenter.js';
import type { RedemptionRepository } from './repo.js';

/** Codes are stored by this digest; a code typed in capitals still finds its row. */
export function hashRedemptionKey(key: string): string {
  return sha256Hex(key.trim().toLowerCase());
}

export interface RedemptionDeps {
  repo: RedemptionRepository;
  users: UserRepository;
  logs: LogRepository;
  options: OptionService;
  groups: { all(): Promise<UserGroupView[]> };
  secrets: SecretBox;
  /** Told after a redemption credits a user, so cached balances (the relay's) follow. */
  onQuotaChanged: (userId: number, delta: number) => void;
  /** A redemption is a top-up: it may meet the condition of the caller's inviter's reward. */
  inviteRewards?: InviteRewards | undefined;
}

/**
 * Redemption codes: administrators create and manage them, users redeem them for quota. A code
 * is spent by one conditional UPDATE; the credit and the top-up log share its transaction.
 */
export class RedemptionService {
  constructor(private readonly deps: RedemptionDeps) {}

  /** The codes `caller` may manage: its own and those of users it outranks (every code, for root). */
  async list(caller: UserRow, query: RedemptionListQuery): Promise<Paged<RedemptionView>> {
    const hiddenCreators = await this.deps.users.idsNotOutrankedBy(caller);
    const page = await this.deps.repo.list({ ...query, hiddenCreators }, query);
    const names = await this.deps.repo.usernames(page.data.map((row) => row.redeemed_user_id));
    return { ...page, data: page.data.map((row) => this.view(row, names)) };
  }

  async get(caller: UserRow, id: number): Promise<RedemptionView> {
    const row = await this.require(caller, id);
    return this.view(row, await this.deps.repo.usernames([row.redeemed_user_id]));
  }

  /** Creates `count` codes in one statement and returns them; this is how they are handed out. */
  async create(caller: UserRow, body: CreateRedemptionBody): Promise<string[]> {
    const now = nowSeconds();
    const keys = Array.from({ length: body.count }, () => randomUUID().replaceAll('-', ''));
    const rows = keys.map((key) => ({
      user_id: caller.id,
      name: body.name,
      key_hash: hashRedemptionKey(key),
      key_cipher: this.deps.secrets.seal(key),
      status: RedemptionStatus.enabled,
      quota: body.quota,
      created_time: now,
      redeemed_time: 0,
      redeemed_user_id: 0,
    }));
    await this.deps.repo.db.transaction().execute(async (transaction) => {
      const ids = await this.deps.repo.insertMany(rows, transaction);
      await recordCodesCreated(transaction, { name: body.name, quota: body.quota, ids, keys });
    });
    return keys;
  }

  /** A redeemed code may still be renamed; its quota is history and stays. */
  async update(caller: UserRow, body: UpdateRedemptionBody): Promise<RedemptionView> {
    const code = await this.require(caller, body.id);
    const updated = await this.changeCode(code.id, 'update', async (transaction) => {
      if (body.quota !== undefined && body.quota !== Number(code.quota)) {
        const patch = { quota: body.quota, ...(body.name === undefined ? {} : { name: body.name }) };
        return this.deps.repo.updateUnredeemed(code.id, patch, transaction);
      }
      if (body.name !== undefined) await this.deps.repo.rename(code.id, body.name, transaction);
      return true;
    });
    if (!updated) await this.refuseIfRedeemed(caller, code.id, 'quota');
    return this.get(caller, code.id);
  }

  async setStatus(caller: UserRow, body: RedemptionStatusBody): Promise<RedemptionView> {
    const code = await this.require(caller, body.id);
    const action = body.status === RedemptionStatus.enabled ? 'enable' : 'disable';
    const changed = await this.changeCode(code.id, action, (transaction) =>
      this.deps.repo.setStatusUnlessRedeemed(code.id, body.status, transaction),
    );
    if (!changed) await this.refuseIfRedeemed(caller, code.id, 'status');
    return this.get(caller, code.id);
  }

  async delete(caller: UserRow, id: number): Promise<void> {
    await this.require(caller, id);
    const deleted = await this.changeCode(id, 'delete', (transaction) => this.deps.repo.delete(id, transaction));
    if (!deleted) throw AppError.notFound(`redemption code ${id} not found`);
  }

  /**
   * Runs `change` on code `id` in a transaction with its audit row, read before and after it there;
   * false (nothing recorded) when `change` changed nothing. Setting the status it already has is no change.
   */
  private changeCode(
    id: number,
    action: 'update' | 'enable' | 'disable' | 'delete',
    change: (transaction: Executor) => Promise<boolean>,
  ): Promise<boolean> {
    return this.deps.repo.db.transaction().execute(async (transaction) => {
      const before = await this.deps.repo.findById(id, transaction);
      if (!before || !(await change(transaction))) return false;
      const after = action === 'delete' ? undefined : await this.deps.repo.findById(id, transaction);
      if (action === 'update' || action === 'delete' || after?.status !== before.status) {
        await recordRowChange(transaction, CODE_AUDIT, action, before, after);
      }
      return true;
    });
  }

  /** Redeems a code for the caller and returns the quota added. The code never reaches a log or an error text. */
  async redeem(caller: UserRow, key: string, sourceIp: string): Promise<number> {
    const hash = hashRedemptionKey(key);
    // Read before the transaction: on SQLite it holds the only connection until it ends.
    const groups = await this.deps.groups.all();
    let reward: PaidReward | undefined;
    const quota = await this.deps.repo.db.transaction().execute(async (transaction) => {
      const redeemer = { userId: caller.id, staffRedeemer: isAdminRole(caller.role) };
      if (!(await this.deps.repo.claim(transaction, hash, redeemer, nowSeconds()))) {
        throw await this.refusal(transaction, hash, caller.id);
      }
      const code = await this.deps.repo.findByKeyHash(hash, transaction);
      const amount = Number(code?.quota ?? 0);
      // A refusal (the balance would pass MAX_QUOTA) rolls the claim back too.
      reward = await creditTopUp(this.deps, transaction, {
        user: caller,
        quota: amount,
        sourceIp,
        content: `通过兑换码充值 ${logQuota(amount, this.deps.options)}`,
        event: { event: 'redemption', quota: amount },
        groups,
        refusal: 'nothing was redeemed',
      });
      return amount;
    });
    announceTopUp(this.deps, caller.id, quota, reward);
    return quota;
  }

  /** Why a code could not be claimed: it does not exist, is the caller's own, was redeemed, or is disabled. */
  private async refusal(executor: Executor, hash: string, callerId: number): Promise<AppError> {
    const code = await this.deps.repo.findByKeyHash(hash, executor);
    if (!code) return AppError.notFound('key: this redemption code does not exist');
    if (code.user_id === callerId && code.status === RedemptionStatus.enabled) {
      return AppError.forbidden('key: you cannot redeem a redemption code you created yourself');
    }
    if (code.status === RedemptionStatus.redeemed) {
      return AppError.conflict('key: this redemption code has already been used');
    }
    if (code.status === RedemptionStatus.enabled) {
      // Enabled, not the caller's, not claimed: the caller is staff and so was its creator.
      return AppError.forbidden(
        'key: a redemption code an administrator created cannot be redeemed by an administrator',
      );
    }
    return AppError.conflict('key: this redemption code is disabled');
  }

  /** After a conditional update changed nothing: a 409 if the code was redeemed meanwhile, else fine. */
  private async refuseIfRedeemed(caller: UserRow, id: number, field: string): Promise<void> {
    const code = await this.require(caller, id);
    if (code.status === RedemptionStatus.redeemed) {
      throw AppError.conflict(`${field}: redemption code ${id} has already been redeemed`);
    }
  }

  /** A code `caller` may manage: like a user, one created by an equal or higher role is refused with a 403. */
  private async require(caller: UserRow, id: number): Promise<RedemptionRow> {
    const code = await this.deps.repo.findById(id);
    if (!code) throw AppError.notFound(`redemption code ${id} not found`);
    if (code.user_id !== caller.id && (await this.deps.users.idsNotOutrankedBy(caller)).includes(code.user_id)) {
      throw AppError.forbidden(
        'permission denied: this redemption code was created by a user whose role is equal to or higher than yours',
      );
    }
    return code;
  }

  private view(row: RedemptionRow, usernames: ReadonlyMap<number, string>): RedemptionView {
    let key = '';
    try {
      key = this.deps.secrets.open(row.key_cipher);
    } catch {
      // Sealed under another server secret: the code still works by its digest, it just cannot be shown.
    }
    return toRedemptionView(row, key, usernames.get(row.redeemed_user_id) ?? '');
  }
}
