import type { RouteExplanation } from '@one-hub/contracts';
import type { SettledQuota } from './quota.js';

/**
 * The consume log's metadata JSON (reference §4.7), written as text directly: JSON.stringify of
 * an object built for it cost about 15k instructions per request, a tenth of what the consume log
 * costs outside the database (BENCHMARKS.md, fourth step). The text is exactly what JSON.stringify
 * wrote for that object: the same keys in the same order, a key with an undefined value left out,
 * numbers as JSON writes them (`${n}` is the same shortest form; NaN and the infinities are null).
 */
export interface MetadataFields {
  group: string;
  groupRatio: number;
  price: { type: string; input: number; output: number };
  /** The backup group that served the request, when it was one. */
  backupGroup: string | undefined;
  firstByteMs: number | undefined;
  extraTokens: SettledQuota['extraTokens'];
  shortfall: number;
  clientGone: boolean;
  cached: boolean | undefined;
  requestedModel: string | undefined;
  paidBy: 'plan' | 'balance' | undefined;
  planPaid: number | undefined;
  route: RouteExplanation | undefined;
}

const numberText = (value: number) => (Number.isFinite(value) ? `${value}` : 'null');
/** `,"key":value`, or nothing for an undefined value, as JSON.stringify leaves such a key out. */
const numberField = (key: string, value: number | undefined) =>
  value === undefined ? '' : `,"${key}":${numberText(value)}`;
const textField = (key: string, value: string | undefined) =>
  value === undefined ? '' : `,"${key}":${JSON.stringify(value)}`;

export function consumeMetadataText(fields: MetadataFields): string {
  let text =
    textField('group_name', fields.group) +
    numberField('group_ratio', fields.groupRatio) +
    textField('price_type', fields.price.type) +
    numberField('input_ratio', fields.price.input) +
    numberField('output_ratio', fields.price.output);
  // The console's log table marks such rows: the request was billed at the backup group's ratio.
  if (fields.backupGroup !== undefined)
    text += `,"is_backup_group":true${textField('backup_group_name', fields.backupGroup)}`;
  text += numberField('first_response', fields.firstByteMs);
  for (const kind in fields.extraTokens) {
    const extra = fields.extraTokens[kind];
    if (!extra) continue;
    const key = JSON.stringify(kind);
    text += `,${key}:${numberText(extra.count)},${JSON.stringify(`${kind}_ratio`)}:${numberText(extra.ratio)}`;
  }
  if (fields.shortfall > 0) text += numberField('uncharged_quota', fields.shortfall);
  if (fields.clientGone) text += ',"client_disconnected":true';
  if (fields.cached) text += ',"cache_hit":true';
  if (fields.requestedModel) text += textField('requested_model', fields.requestedModel);
  if (fields.paidBy) text += textField('paid_by', fields.paidBy);
  if (fields.paidBy === 'plan') text += numberField('plan_quota', fields.planPaid ?? 0);
  if (fields.route) text += `,"route":${routeText(fields.route)}`;
  return `{${text.slice(1)}}`;
}

/** The route as JSON.stringify writes a RouteTrace's explanation (route-trace.ts): its keys, in its order. */
function routeText(route: RouteExplanation): string {
  let tried = '';
  for (const entry of route.tried) {
    tried += `,{"id":${numberText(entry.id)},"outcome":${JSON.stringify(entry.outcome)},"ms":${numberText(entry.ms)}}`;
  }
  let skipped = '';
  for (const entry of route.skipped)
    skipped += `,{"id":${numberText(entry.id)},"reason":${JSON.stringify(entry.reason)}}`;
  return `{"strategy":${JSON.stringify(route.strategy)},"tried":[${tried.slice(1)}],"skipped":[${skipped.slice(1)}]}`;
}
