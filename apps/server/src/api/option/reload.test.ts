import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../platform/cache/index.js';
import { ChangeBus } from '../../platform/changes.js';
import type { OptionRepository } from './repo.js';
import { OptionService } from './service.js';

/** A table in memory whose reads can be held back, to replay reloads that overlap. */
function heldRepository() {
  const rows = new Map<string, string>();
  const held: Array<() => void> = [];
  let holding = false;
  const repo = {
    async loadAll() {
      const snapshot = [...rows.entries()].map(([key, value]) => ({ key, value }));
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return snapshot;
    },
    // No request runs these writes, so no audit row is written to the executor.
    transaction: <Result>(work: (executor: undefined) => Promise<Result>) => work(undefined),
    async find(key: string) {
      return rows.get(key);
    },
    async upsert(key: string, value: string) {
      rows.set(key, value);
    },
    async insertIfAbsent(key: string, value: string) {
      if (!rows.has(key)) rows.set(key, value);
      return rows.get(key) as string;
    },
  };
  return {
    repo: repo as unknown as OptionRepository,
    rows,
    hold: () => {
      holding = true;
    },
    release(index: number) {
      held[index]?.();
    },
    releaseAll() {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

const quiet = { error() {} };

describe('option reloads', () => {
  it('keeps a value written on this node when a reload that read before the write finishes after it', async () => {
    const table = heldRepository();
    const options = new OptionService(table.repo, new ChangeBus(createMemoryCache()), quiet);
    await options.load();
    table.hold();
    const stale = options.load();
    // The write's own bus echo starts a second reload, which stays held.
    await options.update('SMTPServer', 'mail.example.com');
    table.release(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(options.get('SMTPServer')).toBe('mail.example.com');
    table.releaseAll();
    await stale;
    expect(options.get('SMTPServer')).toBe('mail.example.com');
  });

  it('applies the newest reload when two overlap and the older one finishes last', async () => {
    const table = heldRepository();
    const options = new OptionService(table.repo, new ChangeBus(createMemoryCache()), quiet);
    await options.load();
    table.hold();
    const older = options.load();
    table.rows.set('SystemName', 'Written by another node');
    const newer = options.load();
    await new Promise((resolve) => setImmediate(resolve));
    table.release(1);
    await newer;
    table.release(0);
    await older;
    expect(options.get('SystemName')).toBe('Written by another node');
  });
});
