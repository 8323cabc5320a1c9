import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewLogRow } from '../db/index.js';
import { Journal } from './journal.js';
import { logRowLine, logRowOf } from './log-line.js';
import { readJournal } from './read.js';

/** A row whose every column holds a value no other column holds, so a column read into another's place shows. */
const row: NewLogRow = {
  user_id: 1,
  created_at: 1_765_000_000,
  type: 2,
  content: 'task "a" \\ done',
  username: 'ünïcode 🙂',
  token_name: 'key name',
  model_name: 'gpt-4o-mini',
  quota: -3,
  prompt_tokens: 5,
  completion_tokens: 6,
  channel_id: 7,
  request_time: 8,
  is_stream: true,
  source_ip: '::1',
  metadata: '{"group_name":"default","route":{"tried":[1,"\\u2028\\n"]}}',
  token_id: 9,
  request_id: 'req-1\r',
};

/** Writes the rows to a fresh journal and reads them back as replay does. */
function throughJournal(rows: NewLogRow[], before = ''): { rows: NewLogRow[]; unreadable: number } {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-journal-'));
  // A segment an earlier version wrote, before this journal's own.
  if (before) writeFileSync(join(directory, '00000000.jnl'), before);
  const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
  for (const each of rows) journal.logRow(each);
  journal.close();
  const contents = readJournal(directory);
  return { rows: [...contents.logRows.values()], unreadable: contents.unreadable };
}

describe('a log row in the journal', () => {
  it('is read back column for column from its tab-separated form', () => {
    const line = logRowLine(1, row);
    expect(line).not.toContain('"r":');
    expect(line.split('\t')).toHaveLength(8);
    const rows = [row, { ...row, is_stream: false, content: '' }];
    expect(throughJournal(rows)).toStrictEqual({ rows: rows.map((each) => ({ ...each })), unreadable: 0 });
  });

  it('keeps the whole object for a row the tab-separated form cannot carry', () => {
    const odd = [
      { ...row, id: 44 },
      { ...row, quota: 1.5 },
      { ...row, content: 'two\tcolumns' },
      { ...row, metadata: '{\n}' },
      { ...row, request_id: 'req-\ud800' },
    ];
    expect(odd.map((each) => logRowLine(1, each))).toEqual(odd.map((each) => `{"l":1,"r":${JSON.stringify(each)}}\n`));
    expect(throughJournal(odd)).toStrictEqual({ rows: odd.map((each) => ({ ...each })), unreadable: 0 });
  });

  it('is refused when its head or its texts are not the shape written', () => {
    const [head = '', ...texts] = logRowLine(1, row).slice(0, -1).split('\t');
    const value = JSON.parse(head) as { n: number[]; f: boolean };
    expect(logRowOf(value, texts)).toStrictEqual({ ...row });
    const bad: Array<[Record<string, unknown>, string[]]> = [
      [value, texts.slice(1)],
      [value, [...texts, 'extra']],
      [{ ...value, n: value.n.slice(1) }, texts],
      [{ ...value, n: [...value.n.slice(1), '1'] }, texts],
      [{ n: value.n }, texts],
      [{ r: { ...row } }, texts],
      [{ r: 'row' }, []],
    ];
    for (const [fields, rest] of bad) expect(logRowOf(fields, rest)).toBeUndefined();
  });

  it('reaches the replay beside rows older journals wrote as objects', () => {
    const older = `{"j":"older","v":1}\n{"l":1,"r":${JSON.stringify({ ...row, model_name: 'older' })}}\n`;
    const read = throughJournal([row], older);
    expect(read.unreadable).toBe(0);
    expect(read.rows.map((each) => each.model_name)).toEqual(['older', 'gpt-4o-mini']);
  });

  it('counts a line with a tab that is not a log row as unreadable', () => {
    const damaged = `{"j":"older","v":1}\n{"s":1,"u":1,"t":0,"k":0,"c":1,"q":5}\tstray\n`;
    expect(throughJournal([], damaged).unreadable).toBe(1);
  });
});
