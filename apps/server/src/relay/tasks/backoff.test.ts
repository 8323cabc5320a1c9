import { describe, expect, it } from 'vitest';
import { ChannelBackoff } from './backoff.js';

describe('ChannelBackoff', () => {
  it('skips a failing channel for twice as long after each failure, up to the maximum, until it succeeds', () => {
    let now = 0;
    const backoff = new ChannelBackoff(1_000, 3_000, () => now);
    expect(backoff.ready(7)).toBe(true);
    backoff.failed(7);
    expect(backoff.ready(7)).toBe(false);
    expect(backoff.ready(8)).toBe(true);
    now = 1_000;
    expect(backoff.ready(7)).toBe(true);
    backoff.failed(7);
    now = 2_999;
    expect(backoff.ready(7)).toBe(false);
    now = 3_000;
    expect(backoff.ready(7)).toBe(true);
    backoff.failed(7);
    backoff.failed(7);
    now = 6_000;
    expect(backoff.ready(7)).toBe(true);
    backoff.failed(7);
    backoff.succeeded(7);
    expect(backoff.ready(7)).toBe(true);
  });
});
