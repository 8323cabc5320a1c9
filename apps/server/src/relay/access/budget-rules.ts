import { type Budget, parseStoredBudgets, type UserGroupView } from '@one-hub/contracts';
import type { ActivePlan, ActivePlanReader } from '../../domain/active-plan.js';
import type { UserRow } from '../../platform/db/index.js';
import type { CounterRule } from '../billing/budgets/budget-ledger.js';
import type { KeyRef } from '../billing/ledger.js';
import type { RelayCaller } from './keys.js';

/**
 * The budget windows and token-per-minute limits a caller's requests must fit (issue 33): its key's
 * (`setting.budgets`, `setting.limits.tpm`), its own (`users.budgets`) and its group's, which apply to
 * each member on its own (`budgets`, `tpm`). A user's and its group's windows count the same use.
 */
/** The relay's group directory, as far as budgets read it. */
export interface GroupsDep {
  groups: { enabled(symbol: string): UserGroupView | undefined };
}

const userBudgets = new WeakMap<UserRow, Budget[]>();

/** The user's windows, parsed once per cached row. */
function budgetsOfUser(user: UserRow): Budget[] {
  let budgets = userBudgets.get(user);
  if (!budgets) {
    budgets = parseStoredBudgets(user.budgets);
    userBudgets.set(user, budgets);
  }
  return budgets;
}

function windowRules(subject: string, scope: CounterRule['scope'], budgets: Budget[]): CounterRule[] {
  return budgets.map((budget) => ({
    subject,
    period: budget.period,
    scope,
    limit: {
      ...(budget.quota !== undefined ? { quota: budget.quota } : {}),
      ...(budget.requests !== undefined ? { requests: budget.requests } : {}),
      ...(budget.tokens !== undefined ? { tokens: budget.tokens } : {}),
    },
  }));
}

/** Every window rule of the caller; empty for most callers, at the cost of a few property reads. */
export function budgetRulesOf(deps: GroupsDep, caller: RelayCaller): CounterRule[] {
  const keySubject = `key:${caller.token.id}`;
  const userSubject = `user:${caller.user.id}`;
  const group = deps.groups.enabled(caller.user.group);
  const rules: CounterRule[] = [];
  const { budgets, limits } = caller.setting;
  if (budgets.length > 0) rules.push(...windowRules(keySubject, 'key', budgets));
  if (limits.tpm > 0)
    rules.push({ subject: keySubject, period: 'minute', scope: 'key', limit: { tokens: limits.tpm } });
  const own = budgetsOfUser(caller.user);
  if (own.length > 0) rules.push(...windowRules(userSubject, 'user', own));
  if (group && group.budgets.length > 0) rules.push(...windowRules(userSubject, 'group', group.budgets));
  if (group && group.tpm > 0) {
    rules.push({ subject: userSubject, period: 'minute', scope: 'group', limit: { tokens: group.tpm } });
  }
  return rules;
}

/** The relay's view of subscription plans (`Services.plans`). */
export interface PlansDep {
  plans?: ActivePlanReader | undefined;
}

/**
 * The owner's plan when it pays for `model` (its list is empty or names it); no promise once the
 * user's plan (or that they hold none) is in memory, which is every request after their first.
 */
export function planOf(
  deps: PlansDep,
  userId: number,
  model: string,
): ActivePlan | undefined | Promise<ActivePlan | undefined> {
  const { plans } = deps;
  if (!plans) return undefined;
  const covering = (plan: ActivePlan | null | undefined) =>
    plan && (plan.models.length === 0 || plan.models.includes(model)) ? plan : undefined;
  const cached = plans.cachedFor(userId);
  if (cached !== undefined) return covering(cached);
  return plans.activeFor(userId).then(covering);
}

/** The key a reservation is made for, with the windows it must fit, the tokens it may use and the plan that pays. */
export function keyRefOf(deps: GroupsDep, caller: RelayCaller, tokens: number, plan?: ActivePlan): KeyRef {
  const rules = budgetRulesOf(deps, caller);
  const key: KeyRef = { id: caller.token.id, limited: !caller.unlimited };
  if (rules.length > 0 || plan) key.budgets = { rules, tokens: Math.max(0, Math.ceil(tokens)) };
  if (plan) {
    const rules = windowRules(`sub:${plan.subscriptionId}`, 'plan', plan.budgets);
    key.plan = { rules, fallbackToBalance: plan.fallbackToBalance };
  }
  return key;
}
