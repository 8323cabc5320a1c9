import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { sha256Hex } from '../../platform/crypto.js';
import { isConnectionError } from '../../platform/db/errors.js';
import type { DatabaseHandle, DialectName, Executor, NewLogRow } from '../../platform/db/index.js';
import { appliedBatches, claimBatch, journalMarks } from '../../platform/journal/batches.js';
import { Journal, type WindowUseRecord } from '../../platform/journal/journal.js';
import { type JournalContents, readJournal, removeJournalFiles } from '../../platform/journal/read.js';
import { claimAbandonedSlots, claimSlot } from '../../platform/journal/slots.js';
import { addWindowUse } from './budgets/usage-store.js';
import { addSettlement, applyDeltas, isEmpty, type LedgerDeltas, newDeltas } from './ledger-writer.js';

/**
 * Start-up half of the crash journal (platform/journal/journal.ts): what a process that was
 * killed had settled and logged, and the database does not have, is written now — once: the
 * replay is one transaction recorded under an id derived from the journal itself, so a replay
 * that is itself interrupted, and run again, cannot apply anything twice.
 */

export interface ReplayReport {
  settlements: number;
  logRows: number;
  /** Settlements' use of budget windows. */
  windowUses: number;
  /** Rows the database refused (reported, then dropped, as the log writer does). */
  refusedRows: number;
  /** Damaged or half-written lines skipped. */
  unreadable: number;
}

const ROWS_PER_INSERT = 500;

export interface ReplayOptions {
  /**
   * Writes every settlement Redis holds to the database (the shared ledger's flushAll): after it,
   * a journal's shared settlement beyond its mark is one Redis lost.
   */
  flushShared?: () => Promise<void>;
  /**
   * Gives back, once the replay committed, the balance leases the replayed journals held in Redis,
   * less what the replay wrote for each (the shared ledger's releaseLeases).
   */
  releaseLeases?: (journalIds: readonly string[], spent: LeaseSpend) => Promise<void>;
}

/** What a replay wrote of each lease: `<journal id>|<user id>|<limited key id>|<unlimited key id>` → the amount. */
export type LeaseSpend = Map<string, number>;

/**
 * Writes log rows, and their consume totals into the statistics, in the caller's transaction: the
 * log repository's `insertRows`, handed in by the composition root like every repository.
 */
export type InsertLogRows = (transaction: Executor, dialect: DialectName, rows: NewLogRow[]) => Promise<void>;

export async function replayJournal(
  handle: DatabaseHandle,
  directory: string,
  insertLogRows: InsertLogRows,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const contents = readJournal(directory);
  const report: ReplayReport = {
    settlements: 0,
    logRows: 0,
    windowUses: 0,
    refusedRows: 0,
    unreadable: contents.unreadable,
  };
  if (contents.files.length === 0) return report;
  const { deltas, rows, windows, leaseSpend } = await unwritten(handle, contents, options);
  report.settlements = countSettlements(deltas);
  report.logRows = rows.length;
  report.windowUses = windows.length;
  const money = { deltas, windows: windows.flat() };
  if (!isEmpty(deltas) || rows.length > 0 || windows.length > 0) {
    const replayId = `r-${sha256Hex([...contents.journalIds, ...contents.files.map((file) => basename(file))].join('|')).slice(0, 40)}`;
    try {
      await handle.db.transaction().execute(async (transaction) => {
        if (!(await claimBatch(transaction, replayId))) return;
        await applyMoney(transaction, handle.dialect, money);
        for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
          await insertLogRows(transaction, handle.dialect, rows.slice(start, start + ROWS_PER_INSERT));
        }
      });
    } catch (error) {
      if (isConnectionError(error)) throw error;
      // A row the database refuses must not hold back the money: the settlements first, then
      // each row on its own.
      report.refusedRows = await replayApart(handle, insertLogRows, replayId, money, rows);
    }
  }
  // After the commit: before it, a lease given back would count its unwritten spend as free.
  await options.releaseLeases?.(contents.journalIds, leaseSpend);
  removeJournalFiles(contents);
  return report;
}

/** What a replay writes besides log rows: settled amounts, and their use of budget windows. */
interface Money {
  deltas: LedgerDeltas;
  windows: WindowUseRecord[];
}

async function applyMoney(transaction: Executor, dialect: DialectName, money: Money): Promise<void> {
  await applyDeltas(transaction, money.deltas);
  await addWindowUse(transaction, dialect, money.windows);
}

/**
 * The settlements, window use and rows no committed batch carried, rows in the order they were
 * written. Window use of a window that has ended since is written too: the store keeps only a
 * subject's newest window, so it changes nothing there.
 */
async function unwritten(
  handle: DatabaseHandle,
  contents: JournalContents,
  options: ReplayOptions,
): Promise<{ deltas: LedgerDeltas; rows: NewLogRow[]; windows: WindowUseRecord[][]; leaseSpend: LeaseSpend }> {
  const done = new Set(contents.abandoned);
  const unknown = [...contents.batches.keys()].filter((batchId) => !contents.written.has(batchId));
  const applied = await appliedBatches(handle, unknown);
  for (const batchId of contents.written) applied.add(batchId);
  for (const [batchId, seqs] of contents.batches) {
    if (applied.has(batchId)) for (const seq of seqs) done.add(seq);
  }
  const deltas = newDeltas();
  for (const [seq, record] of contents.settlements) if (!done.has(seq)) addSettlement(deltas, record);
  const leaseSpend: LeaseSpend = new Map();
  if (contents.shared.length > 0) {
    await options.flushShared?.();
    const journals = [...new Set(contents.shared.map((entry) => entry.journal))];
    const marks = await journalMarks(handle, [...journals, ...journals.map((journal) => `${journal}.lease`)]);
    for (const { journal, seq, record, lease } of contents.shared) {
      if (seq <= (marks.get(lease ? `${journal}.lease` : journal) ?? 0)) continue;
      addSettlement(deltas, record);
      if (!lease) continue;
      const key = `${journal}|${record.userId}|${record.tokenId}|${record.unlimitedKeyId}`;
      leaseSpend.set(key, (leaseSpend.get(key) ?? 0) + record.charged);
    }
  }
  const rows: NewLogRow[] = [];
  for (const [seq, row] of [...contents.logRows].sort(([left], [right]) => left - right)) {
    if (!done.has(seq)) rows.push(row);
  }
  const windows = [...contents.windowUse].filter(([seq]) => !done.has(seq)).map(([, records]) => records);
  return { deltas, rows, windows, leaseSpend };
}

async function replayApart(
  handle: DatabaseHandle,
  insertLogRows: InsertLogRows,
  replayId: string,
  money: Money,
  rows: NewLogRow[],
): Promise<number> {
  await handle.db.transaction().execute(async (transaction) => {
    if (await claimBatch(transaction, `${replayId}-s`)) await applyMoney(transaction, handle.dialect, money);
  });
  let refused = 0;
  for (const [index, row] of rows.entries()) {
    try {
      await handle.db.transaction().execute(async (transaction) => {
        if (await claimBatch(transaction, `${replayId}-${index}`))
          await insertLogRows(transaction, handle.dialect, [row]);
      });
    } catch (error) {
      if (isConnectionError(error)) throw error;
      refused++;
    }
  }
  return refused;
}

function countSettlements(deltas: LedgerDeltas): number {
  let count = 0;
  for (const { requests } of deltas.users.values()) count += requests;
  return count;
}

export interface OpenedJournal {
  journal: Journal;
  /** What the slots left by earlier processes held, replayed before this one writes. */
  replayed: ReplayReport;
  close(): void;
}

/**
 * Takes this process's slot of the journal folder, replays it and every slot left by a process
 * that is gone, then opens a fresh journal in it.
 */
export async function openJournal(
  handle: DatabaseHandle,
  root: string,
  insertLogRows: InsertLogRows,
  options: { fsyncIntervalMs: number; onError?: (error: unknown) => void } & ReplayOptions,
): Promise<OpenedJournal> {
  const { flushShared, releaseLeases, ...journalOptions } = options;
  const own = claimSlot(root);
  const replayed: ReplayReport = { settlements: 0, logRows: 0, windowUses: 0, refusedRows: 0, unreadable: 0 };
  try {
    for (const slot of [own, ...claimAbandonedSlots(root, own)]) {
      const report = await replayJournal(handle, slot.directory, insertLogRows, {
        ...(flushShared ? { flushShared } : {}),
        ...(releaseLeases ? { releaseLeases } : {}),
      });
      replayed.settlements += report.settlements;
      replayed.logRows += report.logRows;
      replayed.windowUses += report.windowUses;
      replayed.refusedRows += report.refusedRows;
      replayed.unreadable += report.unreadable;
      if (slot !== own) {
        rmSync(slot.directory, { recursive: true, force: true });
        slot.release();
      }
    }
  } catch (error) {
    own.release();
    throw error;
  }
  const journal = new Journal({ directory: own.directory, ...journalOptions });
  return {
    journal,
    replayed,
    close() {
      journal.close();
      own.release();
    },
  };
}
