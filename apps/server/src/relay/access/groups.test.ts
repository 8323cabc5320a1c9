import type { UserGroupView } from '@one-hub/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupDirectory } from './groups.js';

function group(symbol: string, enable: boolean, ratio = 1): UserGroupView {
  return {
    id: 1,
    symbol,
    name: symbol,
    ratio,
    api_rate: 0,
    tpm: 0,
    budgets: [],
    fallbacks: {},
    cache_affinity: true,
    public: true,
    promotion: false,
    min: 0,
    max: 0,
    enable,
    routing_strategy: 'weighted',
  };
}

describe('the relay’s group directory', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves from memory and reloads on its timer, not from the request path', async () => {
    let stored = [group('default', true), group('cheap', true, 0.5)];
    const all = vi.fn(async () => stored);
    const directory = new GroupDirectory({ all });
    await directory.load();
    directory.refreshInBackground();
    expect(directory.enabled('cheap')?.ratio).toBe(0.5);
    stored = [group('default', true), group('cheap', false)];
    await vi.advanceTimersByTimeAsync(9_999);
    expect(directory.enabled('cheap')?.ratio).toBe(0.5);
    expect(all).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(all).toHaveBeenCalledTimes(2);
    expect(directory.enabled('cheap')).toBeUndefined();
    expect(directory.enabled('default')?.symbol).toBe('default');
    expect(directory.enabled('missing')).toBeUndefined();
    directory.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(all).toHaveBeenCalledTimes(2);
  });

  it('keeps what it served when a reload fails, and runs one reload at a time', async () => {
    let release: (() => void) | undefined;
    const all = vi
      .fn<() => Promise<UserGroupView[]>>()
      .mockResolvedValueOnce([group('default', true)])
      .mockRejectedValueOnce(new Error('database down'))
      .mockImplementationOnce(
        () =>
          new Promise((resolve) => {
            release = () => resolve([group('default', true, 2)]);
          }),
      );
    const directory = new GroupDirectory({ all });
    await directory.load();
    directory.refreshInBackground();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(all).toHaveBeenCalledTimes(2);
    expect(directory.enabled('default')?.ratio).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(all).toHaveBeenCalledTimes(3);
    // The third load is still running: the next tick starts none.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(all).toHaveBeenCalledTimes(3);
    release?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(directory.enabled('default')?.ratio).toBe(2);
    directory.stop();
  });
});
