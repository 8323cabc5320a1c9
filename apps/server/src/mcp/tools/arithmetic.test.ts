import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { EXPRESSION_MAX_LENGTH, evaluateArithmetic } from './arithmetic.js';

function refusal(expression: string): string {
  try {
    evaluateArithmetic(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error(`${expression} was accepted`);
}

describe('evaluateArithmetic', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['10 % 4', 2],
    ['2 ^ 10', 1024],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['-(3 - 5) * -2', -4],
    ['0.1 + 0.2', 0.3],
    ['.5 + 1.', 1.5],
    ['  7  ', 7],
    ['1 - - 1', 2],
    ['-0', 0],
    ['100 - 20 % 7 * 2', 88],
  ])('%s = %d', (expression, expected) => {
    expect(evaluateArithmetic(expression)).toBe(expected);
  });

  it('names what is wrong and where', () => {
    expect(refusal('')).toBe('the expression is empty');
    expect(refusal('   ')).toBe('the expression is empty');
    expect(refusal('1 / 0')).toBe('division by zero');
    expect(refusal('1 % (2 - 2)')).toBe('remainder of a division by zero');
    expect(refusal('2 + x')).toBe('unexpected "x" at position 5: use numbers, + - * / % ^ and parentheses');
    expect(refusal('process.exit()')).toBe('unexpected "p" at position 1: use numbers, + - * / % ^ and parentheses');
    expect(refusal('(1 + 2')).toBe('a ")" is missing for the "(" at position 1');
    expect(refusal('1 + 2)')).toBe('unexpected ")" at position 6');
    expect(refusal('1 +')).toBe('the expression ends too early at position 4: a number is missing');
    expect(refusal('* 3')).toBe('unexpected "*" at position 1: a number is missing');
    expect(refusal('1 2')).toBe('unexpected "2" at position 3');
    expect(refusal('10 ^ 400')).toBe('the result is not a finite number');
    expect(refusal('(0 - 8) ^ 0.5')).toBe('the result is not a finite number');
  });

  it('refuses expressions too long or too deep for a bounded evaluation', () => {
    expect(refusal('1+'.repeat(EXPRESSION_MAX_LENGTH))).toBe(
      `the expression is longer than ${EXPRESSION_MAX_LENGTH} characters`,
    );
    expect(refusal(`${'('.repeat(200)}1${')'.repeat(200)}`)).toBe('the expression is nested more than 100 levels deep');
    expect(refusal(`${'-'.repeat(200)}1`)).toBe('the expression is nested more than 100 levels deep');
    expect(evaluateArithmetic(`${'('.repeat(50)}1${')'.repeat(50)}`)).toBe(1);
  });
});
