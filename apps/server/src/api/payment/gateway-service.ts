import { randomUUID } from 'node:crypto';
import {
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
import type { NewPaymentRow, PaymentRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { OptionService } from '../option/service.js';
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
}

/** Administrators' gateway settings (`/api/payment/`), and the gateways users may pay with. */
export class GatewayService {
  constructor(private readonly deps: GatewayServiceDeps) {}

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

  async create(body: PaymentGatewayBody): Promise<PaymentGatewayView> {
    const uuid = randomUUID().replaceAll('-', '');
    const now = nowSeconds();
    const columns = await this.columns(body, uuid);
    const id = await this.deps.repo.insertGateway({ ...columns, uuid, created_at: now, updated_at: now });
    return this.get(id);
  }

  /** With `uuid` every column is replaced (the edit dialog); without it only the fields sent change. */
  async update(body: UpdatePaymentGatewayBody): Promise<PaymentGatewayView> {
    const stored = await this.require(body.id);
    if (body.uuid !== undefined) {
      const full = parseInput(paymentGatewayBody, body);
      await this.deps.repo.updateGateway(stored.id, await this.columns(full, stored.uuid, stored));
      return this.get(stored.id);
    }
    const patch: Partial<NewPaymentRow> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.icon !== undefined) patch.icon = body.icon;
    if (body.sort !== undefined) patch.sort = body.sort;
    if (body.enable !== undefined) patch.enable = body.enable;
    if (body.fixed_fee !== undefined) patch.fixed_fee = centsText(centsOf(body.fixed_fee));
    if (body.percent_fee !== undefined) patch.percent_fee = centsText(centsOf(body.percent_fee));
    if (body.currency !== undefined) patch.currency = body.currency;
    const touchesVendor = body.type !== undefined || body.config !== undefined || body.notify_domain !== undefined;
    if (touchesVendor) {
      const merged = { ...this.bodyOf(stored), ...definedFields(body) };
      Object.assign(patch, await this.columns(parseInput(paymentGatewayBody, merged), stored.uuid, stored));
    }
    await this.deps.repo.updateGateway(stored.id, patch);
    return this.get(stored.id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.deps.repo.deleteGateway(id))) throw AppError.notFound(`payment gateway ${id} not found`);
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

function definedFields(body: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
