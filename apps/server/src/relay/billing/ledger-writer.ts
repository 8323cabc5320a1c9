import type { DatabaseHandle } from '../../platform/db/index.js';

/** Settled amounts not yet in the database, keyed by user, key and channel id. */
export interface LedgerDeltas {
  users: Map<number, { spent: number; requests: number }>;
  /** Keys with a quota of their own: their balance goes down, their used quota up. */
  tokens: Map<number, number>;
  /** Unlimited keys: only their used quota (and last use) is recorded; they have no balance. */
  unlimitedTokens: Map<number, number>;
  channels: Map<number, number>;
}

export function newDeltas(): LedgerDeltas {
  return { users: new Map(), tokens: new Map(), unlimitedTokens: new Map(), channels: new Map() };
}

export function isEmpty(deltas: LedgerDeltas): boolean {
  return deltas.users.size + deltas.tokens.size + deltas.unlimitedTokens.size + deltas.channels.size === 0;
}

export function addTo(map: Map<number, number>, id: number, amount: number): void {
  map.set(id, (map.get(id) ?? 0) + amount);
}

export function mergeDeltas(into: LedgerDeltas, from: LedgerDeltas): void {
  for (const [id, delta] of from.users) {
    const current = into.users.get(id) ?? { spent: 0, requests: 0 };
    into.users.set(id, { spent: current.spent + delta.spent, requests: current.requests + delta.requests });
  }
  for (const [id, spent] of from.tokens) addTo(into.tokens, id, spent);
  for (const [id, spent] of from.unlimitedTokens) addTo(into.unlimitedTokens, id, spent);
  for (const [id, spent] of from.channels) addTo(into.channels, id, spent);
}

/**
 * One transaction of relative updates: concurrent writers (admin top-ups, other nodes) compose.
 * With a batch id the batch is recorded in the same transaction and applied at most once.
 */
export function createLedgerWriter(handle: DatabaseHandle): (deltas: LedgerDeltas, batchId?: string) => Promise<void> {
  return (deltas, batchId) =>
    handle.db.transaction().execute(async (transaction) => {
      if (batchId) {
        const done = await transaction
          .selectFrom('ledger_flushes')
          .select('id')
          .where('id', '=', batchId)
          .executeTakeFirst();
        if (done) return;
        await transaction
          .insertInto('ledger_flushes')
          .values({ id: batchId, created_at: Math.floor(Date.now() / 1000) })
          .execute();
      }
      for (const [id, { spent, requests }] of deltas.users) {
        await transaction
          .updateTable('users')
          .set((expression) => ({
            quota: expression('quota', '-', spent),
            used_quota: expression('used_quota', '+', spent),
            request_count: expression('request_count', '+', requests),
          }))
          .where('id', '=', id)
          .execute();
      }
      const now = Math.floor(Date.now() / 1000);
      for (const [id, spent] of deltas.tokens) {
        await transaction
          .updateTable('tokens')
          .set((expression) => ({
            remain_quota: expression('remain_quota', '-', spent),
            used_quota: expression('used_quota', '+', spent),
            accessed_time: now,
          }))
          .where('id', '=', id)
          .execute();
      }
      for (const [id, spent] of deltas.unlimitedTokens) {
        await transaction
          .updateTable('tokens')
          .set((expression) => ({ used_quota: expression('used_quota', '+', spent), accessed_time: now }))
          .where('id', '=', id)
          .execute();
      }
      for (const [id, spent] of deltas.channels) {
        await transaction
          .updateTable('channels')
          .set((expression) => ({ used_quota: expression('used_quota', '+', spent) }))
          .where('id', '=', id)
          .execute();
      }
    });
}

/** Reads the pending hash of the shared ledger (u:<id>:spent, u:<id>:req, t:<id>, k:<id>, c:<id>). */
export function deltasFromFields(fields: Record<string, string>): LedgerDeltas {
  const deltas = newDeltas();
  for (const [field, text] of Object.entries(fields)) {
    const value = Number(text);
    const [kind, idText, part] = field.split(':');
    const id = Number(idText);
    if (!Number.isInteger(id) || !Number.isFinite(value)) continue;
    if (kind === 'u') {
      const current = deltas.users.get(id) ?? { spent: 0, requests: 0 };
      if (part === 'spent') current.spent += value;
      else if (part === 'req') current.requests += value;
      deltas.users.set(id, current);
    } else if (kind === 't') deltas.tokens.set(id, value);
    else if (kind === 'k') deltas.unlimitedTokens.set(id, value);
    else if (kind === 'c') deltas.channels.set(id, value);
  }
  return deltas;
}
