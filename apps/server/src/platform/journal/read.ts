import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { NewLogRow } from '../db/index.js';
import type { SettlementRecord, WindowUseRecord } from './journal.js';
import { logRowOf } from './log-line.js';

/** What a slot's segments hold, in the order written (see journal.ts for the lines). */
export interface JournalContents {
  /** The ids of the journals that wrote the segments, in order. */
  journalIds: string[];
  settlements: Map<number, SettlementRecord>;
  /**
   * Settlements of the shared ledger: written at replay only beyond their journal's mark (those
   * made in a balance lease, `lease`, beyond its lease mark).
   */
  shared: Array<{ journal: string; seq: number; record: SettlementRecord; lease?: boolean }>;
  logRows: Map<number, NewLogRow>;
  /** Budget window use, per settlement. */
  windowUse: Map<number, WindowUseRecord[]>;
  /** Batch id → the records it carried. */
  batches: Map<string, number[]>;
  /** Batches known to have committed. */
  written: Set<string>;
  abandoned: Set<number>;
  /** Lines that could not be read (a half-written tail, a damaged file), skipped. */
  unreadable: number;
  files: string[];
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** Reads every segment of a slot; a damaged line is counted and skipped, never fatal. */
export function readJournal(directory: string): JournalContents {
  const contents: JournalContents = {
    journalIds: [],
    settlements: new Map(),
    shared: [],
    logRows: new Map(),
    windowUse: new Map(),
    batches: new Map(),
    written: new Set(),
    abandoned: new Set(),
    unreadable: 0,
    files: [],
  };
  let names: string[];
  try {
    names = readdirSync(directory)
      .filter((name) => name.endsWith('.jnl'))
      .sort();
  } catch {
    return contents;
  }
  for (const name of names) {
    const file = join(directory, name);
    contents.files.push(file);
    // Sequence numbers restart with each journal; the journal id keeps records of two apart.
    let journal = '';
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    // The text after the last line feed is a line the process did not finish writing.
    const tail = lines.pop();
    if (tail) contents.unreadable++;
    for (const line of lines) {
      if (line === '') continue;
      // A log row's texts follow its JSON after tabs (log-line.ts); no other line has a tab.
      const [head = '', ...texts] = line.split('\t');
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(head) as Record<string, unknown>;
      } catch {
        contents.unreadable++;
        continue;
      }
      if (!readLine(contents, value, journal, texts)) contents.unreadable++;
      if (typeof value.j === 'string') {
        journal = value.j;
        if (!contents.journalIds.includes(journal)) contents.journalIds.push(journal);
      }
    }
  }
  return contents;
}

/** Files one line into `contents`; false when it is none of the known shapes. */
function readLine(
  contents: JournalContents,
  value: Record<string, unknown>,
  journal: string,
  texts: readonly string[],
): boolean {
  // Records of two journals in one slot (a replay that stopped half-way) get keys of their own.
  const key = (seq: number) => (journal === '' ? seq : seq + journalOffset(contents, journal));
  if (isCount(value.l)) {
    const row = logRowOf(value, texts);
    if (!row) return false;
    contents.logRows.set(key(value.l), row);
    return true;
  }
  if (texts.length > 0) return false;
  if (typeof value.j === 'string') return true;
  if (isCount(value.s)) {
    const { u, t, k, c, q } = value;
    if (!isCount(u) || !isCount(t) || !isCount(k) || !isCount(c) || !isCount(q)) return false;
    const record = { userId: u, tokenId: t, unlimitedKeyId: k, channelId: c, charged: q };
    if (value.r === 1) contents.shared.push({ journal, seq: value.s, record });
    else if (value.r === 2) contents.shared.push({ journal, seq: value.s, record, lease: true });
    else contents.settlements.set(key(value.s), record);
    return true;
  }
  if (isCount(value.w)) {
    const records = Array.isArray(value.d) ? value.d.map(windowUseOf) : [];
    if (records.length === 0 || records.some((record) => record === undefined)) return false;
    contents.windowUse.set(key(value.w), records as WindowUseRecord[]);
    return true;
  }
  if (typeof value.b === 'string' && Array.isArray(value.i) && value.i.every(isCount)) {
    contents.batches.set(value.b, (value.i as number[]).map(key));
    return true;
  }
  if (typeof value.d === 'string') {
    contents.written.add(value.d);
    return true;
  }
  if (Array.isArray(value.x) && value.x.every(isCount)) {
    for (const seq of value.x as number[]) contents.abandoned.add(key(seq));
    return true;
  }
  return false;
}

/** One `[subject, period, start, quota, requests, tokens]` tuple of a window-use line. */
function windowUseOf(tuple: unknown): WindowUseRecord | undefined {
  if (!Array.isArray(tuple) || tuple.length !== 6) return undefined;
  const [subject, period, start, quota, requests, tokens] = tuple as unknown[];
  if (typeof subject !== 'string' || typeof period !== 'string') return undefined;
  // Quota may be negative: use a window gave back (an answer charged less than it counted).
  if (!isCount(start) || !isCount(quota) || !isCount(requests) || !isCount(tokens)) return undefined;
  return { subject, period, start, quota, requests, tokens };
}

/** Each journal's sequence numbers get a range of their own (2^40 records apart). */
function journalOffset(contents: JournalContents, journal: string): number {
  const index = contents.journalIds.indexOf(journal);
  return (index < 0 ? contents.journalIds.length : index) * 2 ** 40;
}

export function removeJournalFiles(contents: JournalContents): void {
  for (const file of contents.files) rmSync(file, { force: true });
}
