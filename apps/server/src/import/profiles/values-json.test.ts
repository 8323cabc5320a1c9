import { describe, expect, it } from 'vitest';
import {
  objectText,
  toBool,
  toInteger,
  toJsonObject,
  toList,
  toNumber,
  toPositive,
  toStringMap,
  toText,
  toUnixSeconds,
} from './values.js';

describe('reading driver values', () => {
  it('reads booleans the way each driver returns them', () => {
    for (const truthy of [true, 1, '1', 't', 'true', 1n]) expect(toBool(truthy)).toBe(true);
    for (const falsy of [false, 0, '0', 'f', 'false', null, undefined, '']) expect(toBool(falsy)).toBe(false);
  });

  it('reads numbers from numbers, numeric strings and bigints, with a default for the rest', () => {
    expect(toInteger('9007199254740')).toBe(9_007_199_254_740);
    expect(toInteger(42n)).toBe(42);
    expect(toInteger('12.9')).toBe(12);
    expect(toNumber('0.075')).toBe(0.075);
    expect(toInteger(null, 1)).toBe(1);
    expect(toInteger('not a number', -1)).toBe(-1);
    expect(toText(null)).toBe('');
  });

  it('reads GORM deleted_at values as Unix seconds, NULL as null', () => {
    expect(toUnixSeconds('2025-01-01 00:00:00.123+00:00')).toBe(1_735_689_600);
    expect(toUnixSeconds(new Date(1_735_689_600_000))).toBe(1_735_689_600);
    expect(toUnixSeconds(null)).toBeNull();
  });
});

describe('JSON columns', () => {
  it('reads an object from JSON text or from an already parsed column', () => {
    expect(toJsonObject('{"api_version":"2024-06-01"}')).toEqual({ api_version: '2024-06-01' });
    expect(toJsonObject({ is_multi_key: true })).toEqual({ is_multi_key: true });
  });

  it('never throws: broken JSON, arrays, scalars and NULL become an empty object', () => {
    for (const value of ['{broken', '[1,2]', '"text"', '42', '', null, undefined]) {
      expect(toJsonObject(value)).toEqual({});
    }
  });

  it('keeps only string values of a string map', () => {
    expect(toStringMap('{"gpt-4":"gpt-4o","n":1,"x":null}')).toEqual({ 'gpt-4': 'gpt-4o' });
  });

  it('writes an empty object as empty text, others as JSON', () => {
    expect(objectText({})).toBe('');
    expect(objectText({ a: 1 })).toBe('{"a":1}');
  });
});

describe('lists and positive numbers', () => {
  it('splits comma and newline lists, trimmed, without empties or repeats', () => {
    expect(toList(' gpt-4o, gpt-4o-mini ,,gpt-4o')).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(toList('10.0.0.1\r\n192.168.0.0/16\n')).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(toList(null)).toEqual([]);
  });

  it('falls back when a ratio is missing, zero or negative', () => {
    expect(toPositive('500000', 1)).toBe(500_000);
    expect(toPositive('0', 7)).toBe(7);
    expect(toPositive(-3, 7)).toBe(7);
    expect(toPositive(undefined, 7)).toBe(7);
  });
});
