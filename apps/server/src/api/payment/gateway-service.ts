import { randomUUID } from 'node:crypto';
import {
  isRootRole,
  LogType,
  type Paged,
  type PaymentGatewayBody,
  type PaymentGatewayListQuery,
  type PaymentGatewayView,
  paymentGatewayBody,
  type UpdatePaymentGatewayBody,
  type UserPaymentView,
} from '@one-hub/contracts';
import { parseInput } from '../../http/validate.js';
import type { PaymentGateway } from '../../payments/gateway.js';
import { centsOf, centsText } from '../../payments/money.js';
import type { GatewayRegistry } from '../../payments/registry.js';
import { nowSeconds } from '../../platform/clock.js';
import type { Executor, NewPaymentRow, PaymentRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { recordRowChange } from '../audit/row-change.js';
import { LogRepository } from '../log/repo.js';
import type { OptionService } from '../option/service.js';
import { gatewayAudit } from './gateway-audit.js';
import type { GatewayConfigs } from './gateway-config.js';
import { toGatewayView, toUserPaymentView } from './presenter.js';
import type { PaymentRepository } from './repo.js';

/** A gateway row this server can take payments with: its implementation and opened config. */
export interface UsableGateway {
  row: PaymentRow;
  gateway: PaymentGateway;
  config: Record<string, unknown>;
}

export interface GatewayServiceDeps {
  repo: PaymentRepository;
  registry: GatewayRegistry;
  configs: GatewayConfigs;
  options: OptionService;
  /** Where the audit rows go; the log repository holds no state, so one of its own by default. */
  logs?: LogRepository;
}

/** Who asks for a change, and from where: the audit row names them. */
export interface GatewayActor {
  id: number;
  username: string;
  role: number;
  ip: string;
}

/** Administrators' gateway settings (`/api/payment/`), and the gateways users may pay with. */
export class GatewayService {
  private readonly logs: LogRepository;
  private readonly rowAudit: ReturnType<typeof gatewayAudit>;

  constructor(private readonly deps: GatewayServiceDeps) {
    this.logs = deps.logs ?? new LogRepository();
    this.rowAudit = gatewayAudit(deps);
  }

  async list(query: PaymentGatewayListQuery): Promise<Paged<PaymentGatewayView>> {
    const page = await this.deps.repo.listGateways(query);
    return { ...page, data: page.data.map((row) => this.view(row)) };
  }

  async get(id: number): Promise<PaymentGatewayView> {
    return this.view(await this.require(id));
  }

  /** Enabled gateways of types this server handles, public fields only, highest sort first. */
  async forUsers(): Promise<UserPaymentView[]> {
    const rows = await this.deps.repo.enabledGateways();
    return rows.filter((row) => this.deps.registry.has(row.type as never)).map(toUserPaymentView);
  }

  /** Root only (the route says so): the new gateway's keys decide which callbacks credit balances. */
  async create(body: PaymentGatewayBody, actor: GatewayActor): Promise<PaymentGatewayView> {
    const uuid = randomUUID().replaceAll('-', '');
    const now = nowSeconds();
    const columns = await this.columns(body, uuid);
    const id = await this.deps.repo.db.transaction().execute(async (transaction) => {
      const inserted = await this.deps.repo.insertGateway(
        { ...columns, uuid, created_at: now, updated_at: now },
        transaction,
      );
      const fields = [...this.configFields(body), ...(body.notify_domain ? ['notify_domain'] : [])];
      await this.audit(transaction, actor, { id: inserted, ...body }, 'created', fields);
      const created = await this.deps.repo.findGateway({ id: inserted }, transaction);
      await recordRowChange(transaction, this.rowAudit, 'create', undefined, created);
      return inserted;
    });
    return this.get(id);
  }

  /**
   * With `uuid` every column is replaced (the edit dialog); without it only the fields sent change.
   * The vendor settings (type, config, notify_domain) decide which callbacks are believed, so only
   * root may change them, and each change leaves an audit row; an admin keeps the rest.
   */
  async update(body: UpdatePaymentGatewayBody, actor: GatewayActor): Promise<PaymentGatewayView> {
    const stored = await this.require(body.id);
    const full = body.uuid !== undefined ? parseInput(paymentGatewayBody, body) : undefined;
    const vendor = full ?? (touchesVendor(body) ? this.mergedBody(stored, body) : undefined);
    const changed = vendor ? this.vendorChanges(stored, vendor) : [];
    if (changed.length > 0 && !isRootRole(actor.role)) {
      throw AppError.forbidden(
        `${changed.join(', ')}: only root may change a payment gateway's type, config or notify_domain`,
      );
    }
    const patch = full ? await this.columns(full, stored.uuid, stored) : await this.patchOf(stored, body, vendor);
    await this.deps.repo.db.transaction().execute(async (transaction) => {
      const before = await this.deps.repo.findGateway({ id: stored.id }, transaction);
      await this.deps.repo.updateGateway(stored.id, patch, transaction);
      if (changed.length > 0) await this.audit(transaction, actor, stored, 'changed', changed);
      const after = await this.deps.repo.findGateway({ id: stored.id }, transaction);
      await recordRowChange(transaction, this.rowAudit, 'update', before, after);
    });
    return this.get(stored.id);
  }

  /** Root only: an admin could not create it again (its keys, and the notify URL the vendor knows). */
  async delete(id: number, actor: GatewayActor): Promise<void> {
    const stored = await this.require(id);
    await this.deps.repo.db.transaction().execute(async (transaction) => {
      if (!(await this.deps.repo.deleteGateway(id, transaction))) {
        throw AppError.notFound(`payment gateway ${id} not found`);
      }
      await this.audit(transaction, actor, stored, 'deleted', []);
      await recordRowChange(transaction, this.rowAudit, 'delete', stored, undefined);
    });
  }

  private async patchOf(
    stored: PaymentRow,
    body: UpdatePaymentGatewayBody,
    vendor: PaymentGatewayBody | undefined,
  ): Promise<Partial<NewPaymentRow>> {
    const patch: Partial<NewPaymentRow> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.icon !== undefined) patch.icon = body.icon;
    if (body.sort !== undefined) patch.sort = body.sort;
    if (body.enable !== undefined) patch.enable = body.enable;
    if (body.fixed_fee !== undefined) patch.fixed_fee = centsText(centsOf(body.fixed_fee));
    if (body.percent_fee !== undefined) patch.percent_fee = centsText(centsOf(body.percent_fee));
    if (body.currency !== undefined) patch.currency = body.currency;
    if (vendor) Object.assign(patch, await this.columns(vendor, stored.uuid, stored));
    return patch;
  }

  /** The fields of a gateway's vendor settings `next` would change; masked secrets sent back are no change. */
  private vendorChanges(stored: PaymentRow, next: PaymentGatewayBody): string[] {
    if (next.type !== stored.type) return ['type'];
    const changed = next.notify_domain !== stored.notify_domain ? ['notify_domain'] : [];
    const gateway = this.deps.registry.get(next.type);
    // A type this server does not handle: `columns` refuses it with a 400 naming `type`.
    if (!gateway) return changed;
    const config = this.deps.configs.parse(gateway, next.config, stored.config);
    return [...this.deps.configs.changedFields(gateway, config, stored.config), ...changed];
  }

  /** The config field names a new gateway is given (never their values). */
  private configFields(body: PaymentGatewayBody): string[] {
    const gateway = this.deps.registry.get(body.type);
    if (!gateway) return [];
    const config = this.deps.configs.parse(gateway, body.config);
    return Object.keys(config)
      .filter((name) => config[name] !== '' && config[name] !== undefined)
      .map((name) => `config.${name}`);
  }

  /**
   * A system row in the actor's own log, so it is root's to read: who did what to which gateway,
   * naming the fields and never their values.
   */
  private audit(
    executor: Executor,
    actor: GatewayActor,
    gateway: { id: number; name: string; type: string },
    change: 'created' | 'changed' | 'deleted',
    fields: string[],
  ): Promise<void> {
    // One Hub's wording stays in content; the console words the event in the reader's language.
    const what = {
      created: `created with ${fields.join(', ')}`,
      changed: `changed ${fields.join(', ')}`,
      deleted: 'deleted',
    };
    return this.logs.insert(executor, {
      userId: actor.id,
      username: actor.username,
      type: LogType.system,
      sourceIp: actor.ip,
      content: `支付网关 #${gateway.id} ${gateway.name} (${gateway.type}) ${what[change]} by ${actor.username}`,
      event: {
        event: 'payment_gateway',
        change,
        gateway_id: gateway.id,
        gateway_name: gateway.name,
        gateway_type: gateway.type,
        fields,
        actor: actor.username,
      },
    });
  }

  /** The enabled gateway a user pays with or a vendor calls back for; undefined when unknown, disabled or unhandled. */
  async usable(uuid: string): Promise<UsableGateway | undefined> {
    const row = await this.deps.repo.findGateway({ uuid });
    const gateway = row ? this.deps.registry.get(row.type as never) : undefined;
    if (!row || !gateway || !row.enable) return undefined;
    try {
      return { row, gateway, config: this.deps.configs.open(gateway, row.config) };
    } catch {
      return undefined;
    }
  }

  /** `<notify_domain or ServerAddress>/api/payment/notify/<uuid>` (reference §4.10). */
  notifyUrl(row: Pick<PaymentRow, 'notify_domain' | 'uuid'>): string {
    const base = row.notify_domain || this.deps.options.get('ServerAddress');
    return `${base.replace(/\/+$/, '')}/api/payment/notify/${row.uuid}`;
  }

  /** Validates the config (keeping masked secrets), lets the gateway prepare it, and builds the row's columns. */
  private async columns(body: PaymentGatewayBody, uuid: string, stored?: PaymentRow) {
    const gateway = this.deps.registry.get(body.type);
    if (!gateway) throw AppError.badRequest(`type: payment gateway type ${body.type} is not available on this server`);
    const sameType = stored?.type === body.type;
    let config = this.deps.configs.parse(gateway, body.config, sameType ? stored?.config : undefined);
    if (gateway.prepare) {
      try {
        config = await gateway.prepare(config, {
          notifyUrl: this.notifyUrl({ notify_domain: body.notify_domain, uuid }),
        });
      } catch (error) {
        // The reference answers 500 here; the administrator's settings are what failed, so this is a 400.
        const reason = error instanceof Error ? error.message : String(error);
        throw AppError.badRequest(`config: the ${body.type} gateway refused these settings: ${reason}`);
      }
    }
    return {
      type: body.type,
      name: body.name,
      icon: body.icon,
      notify_domain: body.notify_domain,
      fixed_fee: centsText(centsOf(body.fixed_fee)),
      percent_fee: centsText(centsOf(body.percent_fee)),
      currency: body.currency,
      config: this.deps.configs.seal(gateway, config),
      sort: body.sort,
      enable: body.enable,
    };
  }

  /** A partial edit of vendor settings as a full body: the stored row with the fields sent. */
  private mergedBody(stored: PaymentRow, body: UpdatePaymentGatewayBody): PaymentGatewayBody {
    return parseInput(paymentGatewayBody, { ...this.bodyOf(stored), ...definedFields(body) });
  }

  /** A stored row as a full body, secrets left masked so `parse` keeps the stored ones. */
  private bodyOf(row: PaymentRow): Record<string, unknown> {
    const view = this.view(row);
    return { ...view, id: undefined, uuid: undefined, created_at: undefined, updated_at: undefined };
  }

  private async require(id: number): Promise<PaymentRow> {
    const row = await this.deps.repo.findGateway({ id });
    if (!row) throw AppError.notFound(`payment gateway ${id} not found`);
    return row;
  }

  private view(row: PaymentRow): PaymentGatewayView {
    const gateway = this.deps.registry.get(row.type as never);
    return toGatewayView(row, this.deps.configs.masked(gateway, row.config));
  }
}

function touchesVendor(body: UpdatePaymentGatewayBody): boolean {
  return body.type !== undefined || body.config !== undefined || body.notify_domain !== undefined;
}

function definedFields(body: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
