import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from './journal.js';
import { readJournal } from './read.js';

const settlement = (userId: number) => ({ userId, tokenId: 0, unlimitedKeyId: 0, channelId: 1, charged: 10 });

describe('the journal group commit', () => {
  let journal: Journal;
  afterEach(() => journal.close());

  it('writes the records of one turn of the event loop together, and resolves only once they are written', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-journal-'));
    journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    journal.settlement(settlement(1));
    const first = journal.commitTogether();
    journal.settlement(settlement(2));
    const second = journal.commitTogether();
    // Both wait for the same write, which has not happened yet.
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect(readJournal(directory).settlements.size).toBe(0);
    await first;
    expect([...readJournal(directory).settlements.values()].map((record) => record.userId)).toEqual([1, 2]);
    // The next turn's records wait for a write of their own.
    journal.settlement(settlement(3));
    const third = journal.commitTogether();
    expect(third).not.toBe(first);
    await third;
    expect(readJournal(directory).settlements.size).toBe(3);
  });

  it('has nothing to wait for when nothing is buffered, and resolves after an explicit commit too', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-journal-'));
    journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    expect(journal.commitTogether()).toBeUndefined();
    journal.settlement(settlement(4));
    const waiting = journal.commitTogether();
    journal.commit();
    expect(readJournal(directory).settlements.size).toBe(1);
    await expect(waiting).resolves.toBeUndefined();
    expect(journal.commitTogether()).toBeUndefined();
  });
});
