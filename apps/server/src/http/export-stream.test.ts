import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { csvRecords } from '../../test/csv-parse.js';
import { exportFileName, fieldColumns, writeExport } from './export-stream.js';

interface Item {
  id: number;
  name: string;
  tags: string[] | null;
}

const columns = fieldColumns<Item>(['id', 'name', 'tags']);

/** A source of `count` pages of two items that records how far it was read and whether it was stopped. */
function countingPages(count: number) {
  const state = { pulled: 0, stopped: false };
  async function* pages() {
    try {
      for (let page = 0; page < count; page += 1) {
        state.pulled += 1;
        yield [
          { id: page * 2, name: `n${page}a`, tags: null },
          { id: page * 2 + 1, name: `n${page}b`, tags: ['x'] },
        ];
      }
    } finally {
      state.stopped = true;
    }
  }
  return { state, pages: pages() };
}

/** A client that takes a write only when the test says so, and can go away. */
function heldSink() {
  const held: Array<() => void> = [];
  const chunks: string[] = [];
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      held.push(done);
    },
  });
  return { sink, held, chunks };
}

/** A client that takes every write at once, keeping what it got. */
function collectingSink() {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { sink, chunks };
}

describe('writeExport', () => {
  it('writes CSV with a header line and JSON lines in the rows’ own shape', async () => {
    const { sink, chunks } = collectingSink();
    await writeExport(sink, 'csv', { pages: countingPages(2).pages, columns });
    expect(csvRecords(chunks.join(''))).toEqual([
      { id: '0', name: 'n0a', tags: '' },
      { id: '1', name: 'n0b', tags: '["x"]' },
      { id: '2', name: 'n1a', tags: '' },
      { id: '3', name: 'n1b', tags: '["x"]' },
    ]);
    expect(chunks).toHaveLength(2);

    const json = collectingSink();
    await writeExport(json.sink, 'jsonl', { pages: countingPages(1).pages, columns });
    expect(json.chunks.join('')).toBe('{"id":0,"name":"n0a","tags":null}\n{"id":1,"name":"n0b","tags":["x"]}\n');
  });

  it('writes only the header of an empty CSV export, and nothing of an empty JSON-lines one', async () => {
    for (const [format, expected] of [
      ['csv', 'id,name,tags\r\n'],
      ['jsonl', ''],
    ] as const) {
      const { sink, chunks } = collectingSink();
      const finished = new Promise((resolve) => sink.once('finish', resolve));
      await writeExport(sink, format, { pages: countingPages(0).pages, columns });
      await finished;
      expect(chunks.join('')).toBe(expected);
    }
  });

  it('reads the next page only after the client took the last one', async () => {
    const { state, pages } = countingPages(3);
    const { sink, held, chunks } = heldSink();
    const done = writeExport(sink, 'jsonl', { pages, columns });
    for (let page = 1; page <= 3; page += 1) {
      await vi.waitFor(() => expect(held).toHaveLength(page));
      // The client has not taken this page yet: nothing further was read.
      expect(state.pulled).toBe(page);
      held[page - 1]?.();
    }
    await done;
    expect(chunks).toHaveLength(3);
    expect(state.stopped).toBe(true);
  });

  it('stops reading when the client goes away', async () => {
    const { state, pages } = countingPages(1_000);
    const { sink, held } = heldSink();
    const done = writeExport(sink, 'csv', { pages, columns });
    await vi.waitFor(() => expect(held).toHaveLength(1));
    sink.destroy();
    await done;
    expect(state).toEqual({ pulled: 1, stopped: true });
  });

  it('lets a failure of the first page reach the caller before anything starts', async () => {
    const onStart = vi.fn();
    async function* failing(): AsyncGenerator<Item[]> {
      yield* [];
      throw new Error('database down');
    }
    const { sink, chunks } = heldSink();
    await expect(writeExport(sink, 'csv', { pages: failing(), columns }, onStart)).rejects.toThrow('database down');
    expect(onStart).not.toHaveBeenCalled();
    expect(chunks).toEqual([]);
  });
});

describe('exportFileName', () => {
  it('stamps the stem with the local date and time', () => {
    expect(exportFileName('logs', 'csv', new Date(2026, 11, 7, 9, 5, 3))).toBe('logs-20261207-090503.csv');
    expect(exportFileName('logs', 'jsonl', new Date(2026, 0, 31, 23, 59, 59))).toBe('logs-20260131-235959.jsonl');
  });
});
