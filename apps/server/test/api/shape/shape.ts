import { expect } from 'vitest';
import type { TestApp } from '../../app.js';

/**
 * The response shapes the reference's console reads, written as data so a test can say which
 * fields must be there and of which JSON type. Only tests import this.
 *
 * A field is a JSON type ('number', 'string|null'…), a nested shape, or a one-element array:
 * `[shape]` or `['string']` means a non-empty array whose every element matches (an empty array
 * would prove nothing about its elements, so a test must seed at least one).
 */
export type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';
export type FieldShape = JsonType | `${JsonType}|${JsonType}` | Shape | [FieldShape];
export interface Shape {
  [field: string]: FieldShape;
}

function jsonTypeOf(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'object') return type;
  return 'undefined';
}

function fieldProblems(value: unknown, shape: FieldShape, path: string): string[] {
  if (typeof shape === 'string') {
    const allowed = shape.split('|');
    const actual = jsonTypeOf(value);
    if (actual === 'undefined') return [`${path} is missing`];
    return allowed.includes(actual) ? [] : [`${path} is ${actual}, expected ${shape}`];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path} is ${jsonTypeOf(value)}, expected an array`];
    if (value.length === 0) return [`${path} is empty: seed a row so its elements can be checked`];
    return value.flatMap((element, index) => fieldProblems(element, shape[0], `${path}[${index}]`));
  }
  return shapeProblems(value, shape, path);
}

/** Every way `value` departs from `shape`: missing fields and fields of another JSON type. */
export function shapeProblems(value: unknown, shape: Shape, path = '$'): string[] {
  if (jsonTypeOf(value) !== 'object') return [`${path} is ${jsonTypeOf(value)}, expected an object`];
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([field, fieldShape]) =>
    fieldProblems(record[field], fieldShape, `${path}.${field}`),
  );
}

/** Fails with the list of problems, so one run names every missing or mistyped field. */
export function expectShape(value: unknown, shape: Shape): void {
  expect(shapeProblems(value, shape)).toEqual([]);
}

/** For maps keyed by id, model or symbol: a non-empty object whose every value matches. */
export function expectEveryValue(value: unknown, shape: Shape): void {
  expect(jsonTypeOf(value)).toBe('object');
  const entries = Object.entries(value as Record<string, unknown>);
  expect(entries.length, 'the map is empty: seed an entry').toBeGreaterThan(0);
  const problems = entries.flatMap(([key, entry]) => shapeProblems(entry, shape, `$["${key}"]`));
  expect(problems).toEqual([]);
}

/** The paged list `{data, page, size, total_count}` with rows of `row`. */
export function pagedShape(row: Shape): Shape {
  return { data: [row], page: 'number', size: 'number', total_count: 'number' };
}

/** Calls the API and returns the answer's `data`, after checking the call succeeded (200, success true). */
export async function successData(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: object,
): Promise<unknown> {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.success).toBe(true);
  return body.data;
}
