import type { DatabaseHandle, Executor } from '../../platform/db/index.js';
import { claimBatch, raiseJournalMarks } from '../../platform/journal/batches.js';
import type { SettlementRecord } from '../../platform/journal/journal.js';

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

/** Adds one settled request. */
export function addSettlement(deltas: LedgerDeltas, record: SettlementRecord): void {
  const user = deltas.users.get(record.userId) ?? { spent: 0, requests: 0 };
  user.spent += record.charged;
  user.requests += 1;
  deltas.users.set(record.userId, user);
  if (record.tokenId > 0) addTo(deltas.tokens, record.tokenId, record.charged);
  else if (record.unlimitedKeyId > 0) addTo(deltas.unlimitedTokens, record.unlimitedKeyId, record.charged);
  if (record.channelId > 0 && record.charged > 0) addTo(deltas.channels, record.channelId, record.charged);
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

/** Relative updates: concurrent writers (admin top-ups, other nodes) compose. */
export async function applyDeltas(transaction: Executor, deltas: LedgerDeltas): Promise<void> {
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
}

/**
 * One transaction per batch; with a batch id the batch is applied at most once. `marks` (journal
 * id → highest settlement carried) come with the shared ledger's batches.
 */
export function createLedgerWriter(
  handle: DatabaseHandle,
): (deltas: LedgerDeltas, batchId?: string, marks?: ReadonlyMap<string, number>) => Promise<void> {
  return (deltas, batchId, marks) =>
    handle.db.transaction().execute(async (transaction) => {
      if (batchId && !(await claimBatch(transaction, batchId))) return;
      await applyDeltas(transaction, deltas);
      if (marks && marks.size > 0) await raiseJournalMarks(transaction, marks);
    });
}

/**
 * Reads the pending hash of the shared ledger (u:<id>:spent, u:<id>:req, t:<id>, k:<id>, c:<id>;
 * n:<journal id> marks are read by marksFromFields).
 */
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

/** The journal marks in a batch of the shared ledger: n:<journal id> → the highest settlement. */
export function marksFromFields(fields: Record<string, string>): Map<string, number> {
  const marks = new Map<string, number>();
  for (const [field, text] of Object.entries(fields)) {
    if (field.startsWith('n:')) marks.set(field.slice(2), Number(text));
  }
  return marks;
}
