import type { DatabaseHandle } from '../platform/db/index.js';

/** Settled amounts not yet in the database, keyed by user, key and channel id. */
export interface LedgerDeltas {
  users: Map<number, { spent: number; requests: number }>;
  tokens: Map<number, number>;
  channels: Map<number, number>;
}

export function newDeltas(): LedgerDeltas {
  return { users: new Map(), tokens: new Map(), channels: new Map() };
}

export function mergeDeltas(into: LedgerDeltas, from: LedgerDeltas): void {
  for (const [id, delta] of from.users) {
    const current = into.users.get(id) ?? { spent: 0, requests: 0 };
    into.users.set(id, { spent: current.spent + delta.spent, requests: current.requests + delta.requests });
  }
  for (const [id, spent] of from.tokens) into.tokens.set(id, (into.tokens.get(id) ?? 0) + spent);
  for (const [id, spent] of from.channels) into.channels.set(id, (into.channels.get(id) ?? 0) + spent);
}

/** One transaction of relative updates: concurrent writers (admin top-ups, other nodes) compose. */
export function createLedgerWriter(handle: DatabaseHandle): (deltas: LedgerDeltas) => Promise<void> {
  return (deltas) =>
    handle.db.transaction().execute(async (transaction) => {
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
      for (const [id, spent] of deltas.channels) {
        await transaction
          .updateTable('channels')
          .set((expression) => ({ used_quota: expression('used_quota', '+', spent) }))
          .where('id', '=', id)
          .execute();
      }
    });
}
