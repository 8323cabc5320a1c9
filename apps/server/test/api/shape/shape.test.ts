import { describe, expect, it } from 'vitest';
import { type Shape, shapeProblems } from './shape.js';

describe('shapeProblems', () => {
  it('names missing fields and fields of another JSON type, nested and in arrays', () => {
    const shape: Shape = { id: 'number', name: 'string|null', rows: [{ ok: 'boolean' }], tags: ['string'] };
    expect(shapeProblems({ id: 1, name: null, rows: [{ ok: true }], tags: ['a'] }, shape)).toEqual([]);
    expect(shapeProblems({ id: '1', rows: [{ ok: 1 }], tags: [] }, shape)).toEqual([
      '$.id is string, expected number',
      '$.name is missing',
      '$.rows[0].ok is number, expected boolean',
      '$.tags is empty: seed a row so its elements can be checked',
    ]);
  });

  it('tells arrays, objects and null apart', () => {
    expect(shapeProblems({ a: [], b: {}, c: null }, { a: 'object', b: 'array', c: 'object' })).toEqual([
      '$.a is array, expected object',
      '$.b is object, expected array',
      '$.c is null, expected object',
    ]);
    expect(shapeProblems([], { a: 'string' })).toEqual(['$ is array, expected an object']);
  });
});
