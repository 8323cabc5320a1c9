import { describe, expect, it } from 'vitest';
import { copyOwn, ownCopy } from './own-copy.js';

describe('copying own properties as a spread does', () => {
  it('keeps the places and values a spread gives, later sources overriding earlier ones', () => {
    const first = { b: 1, a: 2, 10: 'ten', 2: 'two' };
    const second = { a: 3, c: 4 };
    const copied = copyOwn(copyOwn({} as Record<string, unknown>, first), second);
    copied.d = 5;
    const spread = { ...first, ...second, d: 5 };
    expect(Object.keys(copied)).toEqual(Object.keys(spread));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(spread));
  });

  it('makes a client’s "__proto__" key an own property, never the prototype', () => {
    const body = JSON.parse('{"model":"a","__proto__":{"polluted":true},"n":1}') as Record<string, unknown>;
    const copied = ownCopy(body);
    copied.model = 'b';
    const spread = { ...body, model: 'b' };
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect((copied as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(spread));
    expect(JSON.stringify(copied)).toBe('{"model":"b","__proto__":{"polluted":true},"n":1}');
  });

  it('skips what a spread skips: inherited and non-enumerable properties, and no source at all', () => {
    const source = Object.create({ inherited: 1 }) as Record<string, unknown>;
    source.own = 2;
    Object.defineProperty(source, 'hidden', { value: 3, enumerable: false });
    expect(ownCopy(source)).toEqual({ own: 2 });
    expect(copyOwn({ kept: 1 }, undefined)).toEqual({ kept: 1 });
    expect(copyOwn({ kept: 1 }, null)).toEqual({ kept: 1 });
  });
});
