import { describe, expect, it } from 'vitest';
import { TokenCache } from './token-cache.js';

describe('TokenCache', () => {
  it('keeps a token until its refresh time and shares one fetch in flight', async () => {
    let now = 1000;
    const cache = new TokenCache(() => now);
    let fetches = 0;
    const fetch = async () => {
      fetches += 1;
      return { token: `t${fetches}`, refreshAt: now + 100 };
    };
    const [a, b] = await Promise.all([cache.get('id', fetch), cache.get('id', fetch)]);
    expect([a, b, fetches]).toEqual(['t1', 't1', 1]);
    now += 99;
    expect(await cache.get('id', fetch)).toBe('t1');
    now += 1;
    expect(await cache.get('id', fetch)).toBe('t2');
    cache.forget('id');
    expect(await cache.get('id', fetch)).toBe('t3');
  });

  it('does not remember a failed fetch', async () => {
    const cache = new TokenCache(() => 0);
    await expect(cache.get('id', async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await cache.get('id', async () => ({ token: 'ok', refreshAt: 10 }))).toBe('ok');
  });

  it('drops the oldest entry once it holds maxEntries', async () => {
    const cache = new TokenCache(() => 0, 2);
    let fetches = 0;
    const fetch = (id: string) => async () => {
      fetches += 1;
      return { token: `${id}${fetches}`, refreshAt: 10 };
    };
    await cache.get('a', fetch('a'));
    await cache.get('b', fetch('b'));
    await cache.get('c', fetch('c'));
    expect(await cache.get('b', fetch('b'))).toBe('b2');
    expect(await cache.get('a', fetch('a'))).toBe('a4');
  });
});
