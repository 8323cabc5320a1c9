import { describe, expect, it } from 'vitest';
import { toBool, toDateOnly, toJsonText, toNumberMap, toUnixSeconds } from './values.js';

describe('reading source columns whatever the driver made of them', () => {
  it('reads GORM date-times from every driver as Unix seconds, and empty ones as null', () => {
    expect(toUnixSeconds('2024-05-01 10:20:30.123456789+08:00')).toBe(Date.UTC(2024, 4, 1, 2, 20, 30) / 1000);
    expect(toUnixSeconds('2024-05-01T02:20:30Z')).toBe(Date.UTC(2024, 4, 1, 2, 20, 30) / 1000);
    expect(toUnixSeconds(new Date(Date.UTC(2024, 4, 1)))).toBe(Date.UTC(2024, 4, 1) / 1000);
    expect(toUnixSeconds(1_714_530_000)).toBe(1_714_530_000);
    expect(toUnixSeconds(1_714_530_000_123)).toBe(1_714_530_000);
    for (const empty of [null, undefined, '', 0, '0000-00-00 00:00:00', 'not a date'])
      expect(toUnixSeconds(empty)).toBeNull();
  });

  it('reads booleans written as 0/1, t/f, true/false or a bit', () => {
    for (const yes of [true, 1, '1', 't', 'true', 1n, Buffer.from([1])]) expect(toBool(yes)).toBe(true);
    for (const no of [false, 0, '0', 'f', 'false', null, undefined, Buffer.from([0])]) expect(toBool(no)).toBe(false);
  });

  it('keeps JSON columns as text and numeric maps as numbers', () => {
    expect(toJsonText({ a: 1 }, '{}')).toBe('{"a":1}');
    expect(toJsonText('', '[]')).toBe('[]');
    expect(toJsonText(null, '[]')).toBe('[]');
    expect(toNumberMap('{"a":"0.5","b":2,"c":"x"}')).toEqual({ a: 0.5, b: 2 });
    expect(toDateOnly('2024-05-01')).toBe('2024-05-01');
    expect(toDateOnly(new Date(2024, 4, 1))).toBe('2024-05-01');
  });
});
