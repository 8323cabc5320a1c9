import { describe, expect, it } from 'vitest';
import { lazyModule } from './lazy-module.js';

describe('lazyModule', () => {
  it('loads once on first use and shares the load between callers', async () => {
    let loads = 0;
    const load = lazyModule(async () => ({ loaded: ++loads }));
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(await load()).toBe(first);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let calls = 0;
    const load = lazyModule(async () => {
      calls += 1;
      if (calls === 1) throw new Error('not there yet');
      return 'ready';
    });
    await expect(load()).rejects.toThrow('not there yet');
    await expect(load()).resolves.toBe('ready');
    expect(calls).toBe(2);
  });
});
