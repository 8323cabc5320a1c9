import { DEFAULT_GROUP, LogType, type UserGroupView } from '@one-hub/contracts';
import type { Executor, PlanRow, SubscriptionRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { LogRepository } from '../log/repo.js';
import type { UserRepository } from '../user/repo.js';
import type { SubscriptionRepository } from './subscription-repo.js';

const DAY_SECONDS = 86_400;

/**
 * Starting, renewing and ending a subscription, each inside the caller's transaction and each
 * step one conditional statement, so a paid order, a grant and the expiry job can meet on any
 * number of nodes without a user holding two active plans or a group being moved twice.
 */
export interface ActivationDeps {
  subscriptions: SubscriptionRepository;
  users: Pick<UserRepository, 'findById' | 'update'>;
  logs: LogRepository;
}

export interface ActivationRequest {
  userId: number;
  plan: PlanRow;
  source: 'order' | 'grant';
  tradeNo: string;
  /** Unix seconds, from the service's clock. */
  now: number;
  /** Read before the transaction: on SQLite it holds the only connection until it ends. */
  groups: readonly UserGroupView[];
}

export interface Activated {
  subscriptionId: number;
  expiresAt: number;
  renewed: boolean;
  /** The user's group moved (into the plan's, or back from an expired plan's). */
  groupChanged: boolean;
}

/**
 * A plan the user holds is extended by its duration; a plan while none is active starts now and
 * moves the user into the plan's group (when set, enabled and not theirs already); a different
 * plan while one is active is a 409 naming it. A past-due active row is ended first.
 */
export async function activate(
  deps: ActivationDeps,
  executor: Executor,
  request: ActivationRequest,
): Promise<Activated> {
  const { userId, plan, now } = request;
  await deps.subscriptions.lockUser(executor, userId);
  const due = await deps.subscriptions.active(userId, executor);
  let groupChanged = false;
  if (due && Number(due.expires_at) <= now) {
    groupChanged = (await endSubscription(deps, executor, due, request.groups, now)).returnedTo !== undefined;
  }
  if (await deps.subscriptions.extend(executor, userId, plan.id, plan.duration_days, now)) {
    const renewed = await deps.subscriptions.active(userId, executor);
    if (!renewed) throw new Error(`subscription of user ${userId} vanished while renewed`);
    return { subscriptionId: renewed.id, expiresAt: Number(renewed.expires_at), renewed: true, groupChanged };
  }
  const other = await deps.subscriptions.active(userId, executor);
  if (other) {
    const name = await planName(executor, other.plan_id);
    throw AppError.conflict(
      `you already have the plan '${name}' until ${dateText(Number(other.expires_at))}; ` +
        'another plan can start once it ends',
      'plan_id',
    );
  }
  const user = await deps.users.findById(userId, executor);
  if (!user) throw AppError.notFound('this account no longer exists');
  const enabled = new Set(request.groups.filter((group) => group.enable).map((group) => group.symbol));
  const moveTo = plan.group && plan.group !== user.group && enabled.has(plan.group) ? plan.group : '';
  if (moveTo) await deps.users.update(userId, { group: moveTo }, executor);
  const expiresAt = now + plan.duration_days * DAY_SECONDS;
  const subscriptionId = await deps.subscriptions.insert(
    executor,
    {
      userId,
      planId: plan.id,
      startedAt: now,
      expiresAt,
      group: moveTo,
      previousGroup: moveTo ? user.group : '',
      source: request.source,
      tradeNo: request.tradeNo,
    },
    now,
  );
  return { subscriptionId, expiresAt, renewed: false, groupChanged: groupChanged || moveTo !== '' };
}

/** Who ends a subscription: its end coming (the expiry job, an activation), or an administrator now. */
export type SubscriptionEnding = { by: 'expiry' } | { by: 'administrator'; operatorId: number; sourceIp: string };

const AT_EXPIRY: SubscriptionEnding = { by: 'expiry' };

/**
 * Active → expired, once; the user goes back to the group they left, but only while they are
 * still in the plan's (an administrator may have moved them since), and to the default group
 * when theirs was disabled meanwhile. Writes the user's system log row, naming who ended it. An
 * administrator's ending moves the end to now and fails once the end has come.
 */
export async function endSubscription(
  deps: ActivationDeps,
  executor: Executor,
  row: SubscriptionRow,
  groups: readonly UserGroupView[],
  now: number,
  ending: SubscriptionEnding = AT_EXPIRY,
): Promise<{ ended: boolean; returnedTo?: string }> {
  const early = ending.by === 'administrator';
  if (!(await deps.subscriptions.expire(executor, row.id, now, early))) return { ended: false };
  let returnedTo: string | undefined;
  if (row.group && row.previous_group) {
    const usable = groups.some((group) => group.symbol === row.previous_group && group.enable);
    const target = usable ? row.previous_group : DEFAULT_GROUP;
    if (await deps.subscriptions.returnGroup(executor, row.user_id, row.group, target)) returnedTo = target;
  }
  const user = await deps.users.findById(row.user_id, executor);
  const name = await planName(executor, row.plan_id);
  const plan = { plan_id: row.plan_id, plan_name: name, ...(returnedTo ? { group: returnedTo } : {}) };
  const groupText = returnedTo ? `，分组恢复为 ${returnedTo}` : '';
  await deps.logs.insert(executor, {
    userId: row.user_id,
    username: user?.username ?? '',
    type: LogType.system,
    ...(ending.by === 'administrator'
      ? {
          sourceIp: ending.sourceIp,
          content: `管理员提前结束套餐 ${name}${groupText}，操作者 #${ending.operatorId}`,
          event: { event: 'plan_ended' as const, ...plan, operator_id: ending.operatorId },
        }
      : { content: `套餐 ${name} 已到期${groupText}`, event: { event: 'plan_expired' as const, ...plan } }),
  });
  return { ended: true, ...(returnedTo ? { returnedTo } : {}) };
}

async function planName(executor: Executor, planId: number): Promise<string> {
  const row = await executor.selectFrom('plans').select('name').where('id', '=', planId).executeTakeFirst();
  return row?.name ?? `#${planId}`;
}

/** `2026-12-06 13:39:36 UTC`: how log rows and refusals name a subscription's end. */
export function dateText(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
