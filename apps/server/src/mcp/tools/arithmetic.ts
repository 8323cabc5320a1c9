import { AppError } from '../../platform/errors.js';

/** Longest expression read; an assistant's arithmetic fits easily, a flood does not. */
export const EXPRESSION_MAX_LENGTH = 1000;
/** Deepest nesting of parentheses and signs, so the recursive reader cannot exhaust the stack. */
const MAX_DEPTH = 100;

type Token = { kind: 'number'; value: number; at: number } | { kind: 'symbol'; value: string; at: number };

const SYMBOLS = new Set(['+', '-', '*', '/', '%', '^', '(', ')']);
const NUMBER = /\d+(?:\.\d*)?|\.\d+/y;

function refuse(message: string): never {
  throw AppError.badRequest(message);
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < expression.length) {
    const character = expression.charAt(at);
    if (/\s/.test(character)) {
      at += 1;
    } else if (SYMBOLS.has(character)) {
      tokens.push({ kind: 'symbol', value: character, at });
      at += 1;
    } else {
      NUMBER.lastIndex = at;
      const match = NUMBER.exec(expression);
      if (!match) refuse(`unexpected "${character}" at position ${at + 1}: use numbers, + - * / % ^ and parentheses`);
      tokens.push({ kind: 'number', value: Number(match[0]), at });
      at += match[0].length;
    }
  }
  return tokens;
}

/**
 * Reads an arithmetic expression by recursive descent, never by `eval`. Precedence, loosest
 * first: + and -, then * / %, then unary signs, then ^ (right-associative, so 2^3^2 is 2^9 and
 * -2^2 is -4, as written in mathematics).
 */
class Reader {
  private position = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly length: number,
  ) {}

  read(): number {
    if (this.tokens.length === 0) refuse('the expression is empty');
    const value = this.sum(0);
    const rest = this.tokens[this.position];
    if (rest) refuse(`unexpected "${rest.value}" at position ${rest.at + 1}`);
    return value;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private takeSymbol(...symbols: string[]): string | undefined {
    const token = this.peek();
    if (token?.kind !== 'symbol' || !symbols.includes(token.value)) return undefined;
    this.position += 1;
    return token.value;
  }

  private sum(depth: number): number {
    let value = this.product(depth);
    for (let symbol = this.takeSymbol('+', '-'); symbol; symbol = this.takeSymbol('+', '-')) {
      const right = this.product(depth);
      value = symbol === '+' ? value + right : value - right;
    }
    return value;
  }

  private product(depth: number): number {
    let value = this.signed(depth);
    for (let symbol = this.takeSymbol('*', '/', '%'); symbol; symbol = this.takeSymbol('*', '/', '%')) {
      const right = this.signed(depth);
      if (symbol === '*') value *= right;
      else if (right === 0) refuse(symbol === '/' ? 'division by zero' : 'remainder of a division by zero');
      else value = symbol === '/' ? value / right : value % right;
    }
    return value;
  }

  private signed(depth: number): number {
    if (depth > MAX_DEPTH) refuse(`the expression is nested more than ${MAX_DEPTH} levels deep`);
    const sign = this.takeSymbol('+', '-');
    if (sign) return sign === '-' ? -this.signed(depth + 1) : this.signed(depth + 1);
    return this.power(depth);
  }

  private power(depth: number): number {
    const base = this.operand(depth);
    if (!this.takeSymbol('^')) return base;
    return base ** this.signed(depth + 1);
  }

  private operand(depth: number): number {
    const token = this.peek();
    if (!token) refuse(`the expression ends too early at position ${this.length + 1}: a number is missing`);
    this.position += 1;
    if (token.kind === 'number') return token.value;
    if (token.value !== '(') refuse(`unexpected "${token.value}" at position ${token.at + 1}: a number is missing`);
    const value = this.sum(depth + 1);
    if (!this.takeSymbol(')')) refuse(`a ")" is missing for the "(" at position ${token.at + 1}`);
    return value;
  }
}

/**
 * The value of an arithmetic expression: decimals, + - * / % ^ and parentheses. Binary noise is
 * rounded away (0.1 + 0.2 is 0.3); a result that is not a finite number is refused, like any
 * malformed input, with a message that says where the problem is.
 */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > EXPRESSION_MAX_LENGTH) {
    refuse(`the expression is longer than ${EXPRESSION_MAX_LENGTH} characters`);
  }
  const value = new Reader(tokenize(expression), expression.length).read();
  if (!Number.isFinite(value)) refuse('the result is not a finite number');
  // Fifteen significant digits are what a double holds exactly; -0 reads as 0.
  return Number(value.toPrecision(15)) + 0;
}
