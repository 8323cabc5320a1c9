import type {
  CreatePlanBody,
  Paged,
  PayInstruction,
  PlanListQuery,
  PlanOrderBody,
  PlanView,
  UpdatePlanBody,
} from '@one-hub/contracts';
import type { PlanRow, UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { type RowAudit, recordRowChange } from '../audit/row-change.js';
import type { OrderService } from '../payment/order-service.js';
import type { UserGroupService } from '../user-group/service.js';
import { dateText } from './activation.js';
import { toPlanView } from './presenter.js';
import type { PlanFields, PlanRepository } from './repo.js';
import type { SubscriptionService } from './subscription-service.js';

export interface PlanServiceDeps {
  repo: PlanRepository;
  groups: Pick<UserGroupService, 'requireUsable'>;
  orders: Pick<OrderService, 'createForPlan'>;
  subscriptions: SubscriptionService;
}

/** Plans: administrators define them; users see the enabled ones and buy them through a gateway. */
export class PlanService {
  constructor(private readonly deps: PlanServiceDeps) {}

  async list(query: PlanListQuery): Promise<Paged<PlanView>> {
    const page = await this.deps.repo.list(query);
    return { ...page, data: page.data.map(toPlanView) };
  }

  async get(id: number): Promise<PlanView> {
    return toPlanView(await this.require(id));
  }

  /** The plans a user may buy: enabled ones, by `sort` (highest first). */
  async available(): Promise<PlanView[]> {
    return (await this.deps.repo.enabled()).map(toPlanView);
  }

  async create(body: CreatePlanBody): Promise<PlanView> {
    const fields = await this.fields(body);
    return this.deps.repo.transaction(async (transaction) => {
      const created = await this.deps.repo.findLive(await this.deps.repo.insert(fields, transaction), transaction);
      if (!created) throw new Error(`the plan '${body.name}' just inserted is missing`);
      await recordRowChange(transaction, PLAN_AUDIT, 'create', undefined, created);
      return toPlanView(created);
    });
  }

  async update(body: UpdatePlanBody): Promise<PlanView> {
    const { id, ...rest } = body;
    await this.require(id);
    const fields = await this.fields(rest);
    await this.deps.repo.transaction(async (transaction) => {
      const before = await this.deps.repo.findLive(id, transaction);
      if (!before || !(await this.deps.repo.update(id, fields, transaction))) {
        throw AppError.notFound(`plan ${id} not found`);
      }
      await recordRowChange(transaction, PLAN_AUDIT, 'update', before, await this.deps.repo.findLive(id, transaction));
    });
    // Subscribers' allowance, models and fallback follow the plan at once.
    this.deps.subscriptions.plansChanged();
    return this.get(id);
  }

  /** Soft delete: no longer listed or sold; active subscriptions run to their end. */
  async delete(id: number): Promise<void> {
    await this.deps.repo.transaction(async (transaction) => {
      const before = await this.deps.repo.findLive(id, transaction);
      if (!before || !(await this.deps.repo.softDelete(id, transaction))) {
        throw AppError.notFound(`plan ${id} not found`);
      }
      await recordRowChange(transaction, PLAN_AUDIT, 'delete', before, undefined);
    });
  }

  /**
   * `POST /api/user/plan/order`: an order for an enabled plan through the gateway `uuid`; the
   * plan the caller holds renews, another one is a 409 naming the plan they hold.
   */
  async order(caller: UserRow, body: PlanOrderBody, clientIp: string): Promise<PayInstruction> {
    const plan = await this.deps.repo.findLive(body.plan_id);
    if (!plan || !toPlanView(plan).enable) throw AppError.notFound(`plan ${body.plan_id} not found`, 'plan_id');
    const current = await this.deps.subscriptions.current(caller.id);
    if (current && current.plan.id !== plan.id) {
      throw AppError.conflict(
        `you already have the plan '${current.plan.name}' until ${dateText(Number(current.row.expires_at))}; ` +
          'another plan can be bought once it ends',
        'plan_id',
      );
    }
    const view = toPlanView(plan);
    return this.deps.orders.createForPlan(caller, view, body.uuid, clientIp);
  }

  private async require(id: number) {
    const plan = await this.deps.repo.findLive(id);
    if (!plan) throw AppError.notFound(`plan ${id} not found`);
    return plan;
  }

  /** The columns of a plan; its group, when set, must be an enabled group. */
  private async fields(body: CreatePlanBody): Promise<PlanFields> {
    if (body.group) await this.deps.groups.requireUsable(body.group, 'group');
    return {
      name: body.name,
      description: body.description,
      price: body.price.toFixed(2),
      currency: body.currency,
      duration_days: body.duration_days,
      budgets: JSON.stringify(body.budgets),
      group: body.group,
      models: JSON.stringify([...new Set(body.models)]),
      fallback_to_balance: body.fallback_to_balance,
      enable: body.enable,
      sort: body.sort,
    };
  }
}

/** A plan's audit rows; its budgets are part of the plan, so they are recorded in the plan's row. */
const PLAN_AUDIT: RowAudit<PlanRow> = {
  resource: 'plan',
  target: (plan) => ({ id: plan.id, name: plan.name }),
  fields: (plan) => ({ ...toPlanView(plan) }),
  options: { ignore: ['id', 'created_at', 'updated_at'] },
};
