import {
  type CreateUserGroupBody,
  DEFAULT_GROUP,
  type GroupBudgetWindowView,
  type Paged,
  type PageQuery,
  type UpdateUserGroupBody,
  type UserGroupView,
} from '@one-hub/contracts';
import { type BudgetUsageReader, currentStarts } from '../../domain/budget-windows.js';
import type { ChangeBus } from '../../platform/changes.js';
import { type Executor, isUniqueViolation } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { recordBudgetChange } from '../audit/budgets.js';
import { type RowAudit, recordRowChange } from '../audit/row-change.js';
import type { GroupBudgetUseRepository } from './budget-use.js';
import type { UserGroupFilter, UserGroupRepository } from './repo.js';

export class UserGroupService {
  constructor(
    private readonly repo: UserGroupRepository,
    /** Told after every write, so in-memory copies (the relay's) reload at once, on every node. */
    private readonly changes: ChangeBus,
    private readonly budgetUse: GroupBudgetUseRepository,
  ) {}

  list(paging: PageQuery, filter: UserGroupFilter): Promise<Paged<UserGroupView>> {
    return this.repo.list(paging, filter);
  }

  async get(id: number): Promise<UserGroupView> {
    const group = await this.repo.findById(id);
    if (!group) throw AppError.notFound(`user group ${id} not found`);
    return group;
  }

  /**
   * `budget_windows` of the group's view: each window with its members' standing (from the stored
   * window use) and the top member's use read live, as the member's own view shows it.
   */
  async budgetWindows(group: UserGroupView, usage: BudgetUsageReader): Promise<GroupBudgetWindowView[]> {
    const clock = usage.clock();
    const now = Date.now();
    const views: GroupBudgetWindowView[] = [];
    for (const budget of group.budgets) {
      const standing = await this.budgetUse.windowUse(group.symbol, budget, currentStarts(budget.period, clock, now));
      const [live] = standing.top
        ? await usage.windows([{ scope: 'group', subject: `user:${standing.top.id}`, budgets: [budget] }])
        : [];
      views.push({
        period: budget.period,
        quota: budget.quota ?? null,
        requests: budget.requests ?? null,
        tokens: budget.tokens ?? null,
        members_using: standing.using,
        members_exhausted: standing.exhausted,
        top:
          standing.top && live
            ? {
                user_id: standing.top.id,
                username: standing.top.username,
                used_quota: live.used_quota,
                used_requests: live.used_requests,
                used_tokens: live.used_tokens,
                started_at: live.started_at,
                resets_at: live.resets_at,
              }
            : null,
      });
    }
    return views;
  }

  /** A group by symbol, if there is one. */
  find(symbol: string): Promise<UserGroupView | undefined> {
    return this.repo.findBySymbol(symbol);
  }

  /** An enabled group by symbol, or a 400 naming the field that referred to it. */
  async requireUsable(symbol: string, field = 'group'): Promise<UserGroupView> {
    const group = await this.repo.findBySymbol(symbol);
    if (!group) throw AppError.badRequest(`${field}: user group '${symbol}' does not exist`);
    if (!group.enable) throw AppError.badRequest(`${field}: user group '${symbol}' is disabled`);
    return group;
  }

  async create(body: CreateUserGroupBody): Promise<UserGroupView> {
    const { symbol, ...fields } = body;
    if (await this.repo.findBySymbol(symbol))
      throw AppError.conflict(`user group '${symbol}' already exists`, 'symbol');
    try {
      const created = await this.repo.transaction(async (transaction) => {
        const group = await this.repo.findById(await this.repo.insert(symbol, fields, transaction), transaction);
        if (!group) throw new Error(`the user group '${symbol}' just inserted is missing`);
        await recordGroupChange(transaction, 'create', undefined, group);
        return group;
      });
      await this.changes.publish('groups', {});
      return created;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(`user group '${symbol}' already exists`, 'symbol');
      throw error;
    }
  }

  async update(body: UpdateUserGroupBody): Promise<UserGroupView> {
    const { id, symbol, ...fields } = body;
    const updated = await this.repo.transaction(async (transaction) => {
      const existing = await this.repo.findById(id, transaction);
      if (!existing) throw AppError.notFound(`user group ${id} not found`);
      if (symbol !== undefined && symbol !== existing.symbol) {
        throw AppError.badRequest('the symbol of a user group cannot be changed', 'symbol');
      }
      await this.repo.update(id, fields, transaction);
      const group = (await this.repo.findById(id, transaction)) ?? existing;
      await recordGroupChange(transaction, 'update', existing, group);
      return group;
    });
    await this.changes.publish('groups', {});
    return updated;
  }

  async toggleEnabled(id: number): Promise<UserGroupView> {
    const group = await this.get(id);
    if (group.symbol === DEFAULT_GROUP && group.enable) {
      throw AppError.badRequest(`the '${DEFAULT_GROUP}' user group cannot be disabled`);
    }
    const toggled = { ...group, enable: !group.enable };
    await this.repo.transaction(async (transaction) => {
      await this.repo.setEnabled(id, toggled.enable, transaction);
      await recordGroupChange(transaction, toggled.enable ? 'enable' : 'disable', group, toggled);
    });
    await this.changes.publish('groups', {});
    return toggled;
  }

  async delete(id: number): Promise<void> {
    const group = await this.get(id);
    if (group.symbol === DEFAULT_GROUP)
      throw AppError.badRequest(`the '${DEFAULT_GROUP}' user group cannot be deleted`);
    const members = await this.repo.countMembers(group.symbol);
    if (members > 0) {
      throw AppError.conflict(
        `user group '${group.symbol}' still has ${members} user(s); move them to another group first`,
      );
    }
    await this.repo.transaction(async (transaction) => {
      await this.repo.delete(id, transaction);
      await recordGroupChange(transaction, 'delete', group, undefined);
    });
    await this.changes.publish('groups', {});
  }

  /** Enabled groups a caller may pick: the public ones and the caller's own. */
  async visibleTo(userGroup: string | undefined): Promise<Record<string, UserGroupView>> {
    const groups = await this.repo.all();
    const visible = groups.filter((group) => group.enable && (group.public || group.symbol === userGroup));
    return Object.fromEntries(visible.map((group) => [group.symbol, group]));
  }

  async enabledSymbols(): Promise<string[]> {
    return (await this.repo.all()).filter((group) => group.enable).map((group) => group.symbol);
  }
}

/**
 * A group's audit rows: its fields in a `user_group` row, its budget windows in a `budget` row of
 * their own (target `group:<symbol>`), both in the change's transaction.
 */
async function recordGroupChange(
  executor: Executor,
  action: 'create' | 'update' | 'enable' | 'disable' | 'delete',
  before: UserGroupView | undefined,
  after: UserGroupView | undefined,
): Promise<void> {
  const group = after ?? before;
  if (!group) return;
  await recordRowChange(executor, GROUP_AUDIT, action, before, after);
  await recordBudgetChange(
    executor,
    { targetId: `group:${group.symbol}`, targetName: group.name },
    before?.budgets,
    after?.budgets,
  );
}

const GROUP_AUDIT: RowAudit<UserGroupView> = {
  resource: 'user_group',
  target: (group) => ({ id: group.id, name: group.symbol }),
  options: { ignore: ['id', 'budgets'] },
};
