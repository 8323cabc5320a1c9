import { type PriceBody, type PriceView, priceBody } from '@one-hub/contracts';
import type { Translate } from './priceForm.js';

/** How a model of the price list compares with the stored prices. */
export type CheckStatus = 'new' | 'changed' | 'same' | 'onlyCurrent' | 'locked';
export const CHECK_STATUSES: readonly CheckStatus[] = ['new', 'changed', 'locked', 'onlyCurrent', 'same'];

export interface CheckRow {
  model: string;
  status: CheckStatus;
  current?: PriceView;
  incoming?: PriceBody;
  /** Fields whose values differ, when both sides have the model. */
  differences: Array<'type' | 'channel_type' | 'input' | 'output' | 'extra_ratios'>;
}

export type ParseResult = { ok: true; prices: PriceBody[] } | { ok: false; errors: string[] };

/** At most this many problems are listed; a broken file usually repeats one mistake. */
const MAX_LISTED_ERRORS = 5;

/**
 * Reads a price list file: a JSON array of prices, or `{"data": [...]}` as the update service
 * sends it. Each entry is checked with the server's schema; problems name the entry and field.
 */
export function parsePriceFile(text: string, t: Translate): ParseResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, errors: [t('pricing:check.errors.notJson')] };
  }
  const list =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'data' in parsed ? parsed.data : parsed;
  if (!Array.isArray(list)) return { ok: false, errors: [t('pricing:check.errors.notArray')] };
  if (list.length === 0) return { ok: false, errors: [t('pricing:check.errors.empty')] };

  const prices: PriceBody[] = [];
  const errors: string[] = [];
  list.forEach((entry: unknown, index) => {
    const result = priceBody.safeParse(entry);
    if (result.success) {
      prices.push(result.data);
      return;
    }
    const model =
      entry && typeof entry === 'object' && 'model' in entry && typeof entry.model === 'string' ? entry.model : '';
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') || '';
    errors.push(
      t('pricing:check.errors.entry', { number: index + 1, model: model || '—', field, message: issue?.message ?? '' }),
    );
  });
  if (errors.length > 0) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    if (errors.length > MAX_LISTED_ERRORS) {
      listed.push(t('pricing:check.errors.more', { count: errors.length - MAX_LISTED_ERRORS }));
    }
    return { ok: false, errors: listed };
  }
  return { ok: true, prices };
}

function sameRatios(left: Record<string, number>, right: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (left[key] !== right[key]) return false;
  return true;
}

function differencesOf(current: PriceView, incoming: PriceBody): CheckRow['differences'] {
  const differences: CheckRow['differences'] = [];
  if (current.type !== incoming.type) differences.push('type');
  if (current.channel_type !== incoming.channel_type) differences.push('channel_type');
  if (current.input !== incoming.input) differences.push('input');
  if (current.output !== incoming.output) differences.push('output');
  if (!sameRatios(current.extra_ratios ?? {}, incoming.extra_ratios ?? {})) differences.push('extra_ratios');
  return differences;
}

/** Compares the stored prices with a price list, one row per model of either: by status, then model. */
export function comparePrices(current: readonly PriceView[], incoming: readonly PriceBody[]): CheckRow[] {
  const stored = new Map(current.map((price) => [price.model, price]));
  // A list may name a model twice; the later entry is the one the server applies.
  const listed = new Map(incoming.map((price) => [price.model, price]));
  const rows: CheckRow[] = [];
  for (const [model, price] of listed) {
    const existing = stored.get(model);
    if (!existing) {
      rows.push({ model, status: 'new', incoming: price, differences: [] });
      continue;
    }
    const differences = differencesOf(existing, price);
    const status: CheckStatus = existing.locked ? 'locked' : differences.length > 0 ? 'changed' : 'same';
    rows.push({ model, status, current: existing, incoming: price, differences });
  }
  for (const [model, price] of stored) {
    if (listed.has(model)) continue;
    rows.push({ model, status: price.locked ? 'locked' : 'onlyCurrent', current: price, differences: [] });
  }
  const order = (status: CheckStatus) => CHECK_STATUSES.indexOf(status);
  // What would change comes first.
  return rows.sort((left, right) => order(left.status) - order(right.status) || left.model.localeCompare(right.model));
}

export function countStatuses(rows: readonly CheckRow[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { new: 0, changed: 0, same: 0, onlyCurrent: 0, locked: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}

export type ApplyMode = 'add' | 'update' | 'overwrite';
export const APPLY_MODES: readonly ApplyMode[] = ['add', 'update', 'overwrite'];

/** What applying the list in `mode` will do, as the server applies it (locked rows are never touched). */
export function expectedEffect(
  rows: readonly CheckRow[],
  mode: ApplyMode,
): { add: number; update: number; remove: number } {
  const counts = countStatuses(rows);
  if (mode === 'add') return { add: counts.new, update: 0, remove: 0 };
  if (mode === 'update') return { add: 0, update: counts.changed, remove: 0 };
  // Overwrite deletes every unlocked price and inserts the list: unchanged rows come back as they were.
  return { add: counts.new, update: counts.changed, remove: counts.onlyCurrent };
}
