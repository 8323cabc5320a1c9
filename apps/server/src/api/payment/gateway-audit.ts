import type { PaymentGatewayType } from '@one-hub/contracts';
import type { GatewayRegistry } from '../../payments/registry.js';
import type { PaymentRow } from '../../platform/db/index.js';
import type { RowAudit } from '../audit/row-change.js';
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

/**
 * A gateway's audit rows: credentials only as `{secret: true}`. The secret fields of every type,
 * so a change of type masks both the old type's and the new one's.
 */
export function gatewayAudit(deps: GatewayAuditDeps): RowAudit<PaymentRow> {
  const secret = [...deps.registry.values()].flatMap((gateway) => gateway.secretFields.map((name) => `config.${name}`));
  return {
    resource: 'payment',
    target: (gateway) => ({ id: gateway.id, name: gateway.name }),
    fields: (gateway) => auditFields(deps, gateway),
    options: { secret },
  };
}
