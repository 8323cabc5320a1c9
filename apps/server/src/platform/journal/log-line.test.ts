import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewLogRow } from '../db/index.js';
import { Journal } from './journal.js';
import { logRowFields, logRowOf } from './log-line.js';
import { readJournal } from './read.js';

/** A row whose every column holds a value no other column holds, so a column read into another's place shows. */
const row: NewLogRow = {
  user_id: 1,
  created_at: 1_765_000_000,
  type: 2,
  content: 'task "a"\nline',
  username: 'ünïcode',
  token_name: 'key \\ name',
  model_name: 'gpt-4o-mini',
  quota: -3,
  prompt_tokens: 5,
  completion_tokens: 6,
  channel_id: 7,
  request_time: 8,
  is_stream: true,
  source_ip: '::1',
  metadata: '{"group_name":"default","route":{"tried":[1,"\\u2028"]}}',
  token_id: 9,
  request_id: 'req-\ud800',
};

const lineOf = (fields: NewLogRow) => JSON.parse(`{"l":1,${logRowFields(fields)}}`) as Record<string, unknown>;

describe('a log row in the journal', () => {
  it('is read back column for column from its compact form', () => {
    const line = lineOf(row);
    expect(line.r).toBeUndefined();
    expect(logRowOf(line)).toStrictEqual({ ...row });
    expect(logRowOf(lineOf({ ...row, is_stream: false }))?.is_stream).toBe(false);
  });

  it('keeps the whole object for a row the compact form cannot carry', () => {
    for (const odd of [
      { ...row, id: 44 },
      { ...row, quota: 1.5 },
      { ...row, metadata: undefined as unknown as string },
    ]) {
      const line = lineOf(odd);
      expect(line.n).toBeUndefined();
      expect(logRowOf(line)).toStrictEqual(JSON.parse(JSON.stringify(odd)));
    }
  });

  it('is refused when its arrays are not the shape written', () => {
    const { n: numbers, s: texts } = lineOf(row) as { n: number[]; s: string[] };
    const bad = [
      { n: numbers.slice(1), s: texts, f: true },
      { n: numbers, s: [...texts.slice(1), 4], f: true },
      { n: [...numbers.slice(1), '1'], s: texts, f: true },
      { n: numbers, s: texts },
      { r: 'row' },
    ];
    for (const fields of bad) expect(logRowOf(fields)).toBeUndefined();
  });

  it('reaches the replay as written, beside rows older journals wrote as objects', () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-journal-'));
    // A segment an earlier version wrote, before this journal's own.
    writeFileSync(
      join(directory, '00000000.jnl'),
      `{"j":"older","v":1}\n{"l":1,"r":${JSON.stringify({ ...row, model_name: 'older' })}}\n`,
    );
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const seq = journal.logRow(row);
    journal.close();
    const contents = readJournal(directory);
    expect(contents.unreadable).toBe(0);
    const rows = [...contents.logRows.values()];
    expect(rows.map((each) => each.model_name)).toEqual(['older', 'gpt-4o-mini']);
    expect(rows[1]).toStrictEqual({ ...row });
    expect(seq).toBe(1);
  });
});
