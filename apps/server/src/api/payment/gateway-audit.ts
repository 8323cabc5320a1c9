import type { PaymentGatewayType } from '@one-hub/contracts';
import type { GatewayRegistry } from '../../payments/registry.js';
import type { Executor, PaymentRow } from '../../platform/db/index.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import type { GatewayConfigs } from './gateway-config.js';
import { toGatewayView } from './presenter.js';

interface GatewayAuditDeps {
  registry: GatewayRegistry;
  configs: GatewayConfigs;
}

/**
 * A gateway as the audit compares it: the presented fields, and each config field as its own
 * `config.<name>` (secrets opened here only so a changed secret is told from an unchanged one;
 * changedFields records them as `{secret: true}`). A type this server cannot handle has no
 * readable config, so none of it is recorded.
 */
function auditFields(deps: GatewayAuditDeps, row: PaymentRow): Record<string, unknown> {
  const {
    id: _id,
    uuid: _uuid,
    created_at: _created,
    updated_at: _updated,
    config: _config,
    ...fields
  } = toGatewayView(row, '{}');
  const gateway = deps.registry.get(row.type as PaymentGatewayType);
  if (!gateway) return fields;
  let config: Record<string, unknown> = {};
  try {
    config = deps.configs.open(gateway, row.config);
  } catch {
    // A stored config that is not a JSON object: its fields cannot be named.
  }
  return { ...fields, ...Object.fromEntries(Object.entries(config).map(([name, value]) => [`config.${name}`, value])) };
}

/** The secret config fields of either side's type (a type change swaps the gateway's fields). */
function secretFields(deps: GatewayAuditDeps, rows: ReadonlyArray<PaymentRow | undefined>): string[] {
  return rows.flatMap((row) => {
    const gateway = row && deps.registry.get(row.type as PaymentGatewayType);
    return (gateway?.secretFields ?? []).map((name) => `config.${name}`);
  });
}

/** A `payment` audit row for a gateway created, edited or deleted; credentials only as `{secret: true}`. */
export function recordGatewayChange(
  executor: Executor,
  deps: GatewayAuditDeps,
  action: 'create' | 'update' | 'delete',
  before: PaymentRow | undefined,
  after: PaymentRow | undefined,
): Promise<void> {
  const gateway = after ?? before;
  if (!gateway) return Promise.resolve();
  return recordAudit(executor, {
    resource: 'payment',
    action,
    targetId: gateway.id,
    targetName: gateway.name,
    changes: changedFields(before && auditFields(deps, before), after && auditFields(deps, after), {
      secret: secretFields(deps, [before, after]),
    }),
  });
}
