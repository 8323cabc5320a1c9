import { describe, expect, it } from 'vitest';
import { RefreshThrottle } from './refresh-throttle.js';

describe('RefreshThrottle', () => {
  it('allows one refresh of a task per window, each task on its own', () => {
    let now = 1_000_000;
    const throttle = new RefreshThrottle(5_000, () => now);
    expect(throttle.take('a')).toBe(true);
    expect(throttle.take('a')).toBe(false);
    expect(throttle.take('b')).toBe(true);
    now += 4_999;
    expect(throttle.take('a')).toBe(false);
    now += 1;
    expect(throttle.take('a')).toBe(true);
    expect(throttle.take('b')).toBe(true);
  });
});
