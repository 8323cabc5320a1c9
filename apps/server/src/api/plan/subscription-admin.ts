import type { Paged, SubscriberView, SubscriptionListQuery, SubscriptionView, UserGroupView } from '@one-hub/contracts';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import { assertOutranks } from '../user/rank.js';
import { type ActivationDeps, dateText, endSubscription } from './activation.js';
import { statusAt, toSubscriberView, toSubscriptionView } from './presenter.js';
import type { PlanRepository } from './repo.js';
import type { SubscriptionRepository } from './subscription-repo.js';

/** What the administrators' subscription routes read and write (the service's parts), and its clock in seconds. */
export interface SubscriptionAdminDeps {
  repo: SubscriptionRepository;
  plans: PlanRepository;
  groups: { all(): Promise<UserGroupView[]> };
  steps: ActivationDeps;
  now: number;
}

/** `GET /api/plan/subscriptions`: the running subscriptions with their holders and plans. */
export async function listSubscribers(
  deps: SubscriptionAdminDeps,
  caller: UserRow,
  query: SubscriptionListQuery,
): Promise<Paged<SubscriberView>> {
  const page = await deps.repo.running(query, deps.now);
  const [plans, holders] = await Promise.all([
    deps.plans.findAny(page.data.map((row) => row.plan_id)),
    deps.repo.holders(page.data.map((row) => row.user_id)),
  ]);
  const planOf = new Map(plans.map((plan) => [plan.id, plan]));
  const holderOf = new Map(holders.map((holder) => [Number(holder.id), holder]));
  return {
    ...page,
    data: page.data.map((row) =>
      toSubscriberView(row, planOf.get(row.plan_id), holderOf.get(row.user_id), caller.role),
    ),
  };
}

export interface EndedSubscription {
  userId: number;
  groupChanged: boolean;
  view: SubscriptionView;
}

/**
 * `POST /api/plan/subscription/:id/end`: an administrator ends a running subscription of a user
 * it outranks now, as its expiry would (the group goes back), with the user's log row and an audit
 * row naming who did. What the plan's windows used stays used. A subscription already ended is a 409.
 */
export async function endNow(
  deps: SubscriptionAdminDeps,
  caller: UserRow,
  id: number,
  sourceIp: string,
): Promise<EndedSubscription> {
  const row = await deps.repo.findById(id);
  if (!row) throw AppError.notFound(`subscription ${id} not found`);
  const [holder] = await deps.repo.holders([row.user_id]);
  if (!holder) throw AppError.notFound(`the user of subscription ${id} no longer exists`);
  assertOutranks(caller, holder);
  const [plan] = await deps.plans.findAny([row.plan_id]);
  const planName = plan?.name ?? `#${row.plan_id}`;
  const alreadyEnded = () =>
    AppError.conflict(
      `the subscription ${id} of ${holder.username} to the plan '${planName}' already ended ` +
        `(${dateText(Number(row.expires_at))})`,
    );
  if (statusAt(row, deps.now) !== 'active') throw alreadyEnded();
  const groups = await deps.groups.all();
  const ending = { by: 'administrator' as const, operatorId: caller.id, sourceIp };
  const result = await deps.repo.db.transaction().execute(async (transaction) => {
    const ended = await endSubscription(deps.steps, transaction, row, groups, deps.now, ending);
    if (!ended.ended) return ended;
    await recordAudit(transaction, {
      resource: 'plan',
      action: 'end',
      targetId: row.plan_id,
      targetName: planName,
      changes: {
        ...changedFields(undefined, { subscription_id: row.id, user_id: row.user_id, username: holder.username }),
        ...changedFields(
          { status: 'active', expires_at: Number(row.expires_at) },
          { status: 'expired', expires_at: deps.now },
        ),
      },
    });
    return ended;
  });
  if (!result.ended) throw alreadyEnded();
  const ended = { ...row, status: 'expired', active_slot: row.id, expires_at: deps.now };
  return {
    userId: row.user_id,
    groupChanged: result.returnedTo !== undefined,
    view: toSubscriptionView(ended, plan, deps.now, []),
  };
}
