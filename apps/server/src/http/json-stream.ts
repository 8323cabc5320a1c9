import { MAX_JSON_DEPTH } from '@one-hub/contracts';
import { type ParsedTokenInfo, Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { AppError } from '../platform/errors.js';

/**
 * Parses a large JSON body a chunk at a time, as it arrives, so no single step holds the event loop
 * for longer than one socket read takes to tokenize (a millisecond or two for 64 KiB); JSON.parse
 * of a 10 MiB body holds it for tens of milliseconds, and the depth scan before it as long again.
 * The rules are those of the whole-body path (relay-front.ts, bodies.ts): at most MAX_JSON_DEPTH
 * levels, and secure-json-parse's prototype-poisoning rule (a `__proto__` key, or a `constructor`
 * object with a `prototype` key, is refused), with the same messages.
 */
export interface JsonStream {
  write(chunk: Buffer): void;
  /** The parsed value; throws what the whole-body path would throw. */
  end(): unknown;
}

const tooDeep = () =>
  AppError.badRequest(
    `request body is nested too deeply: JSON arrays and objects may nest at most ${MAX_JSON_DEPTH} levels`,
  );
// SyntaxError, as secure-json-parse and JSON.parse throw: rendered as "request body is not valid JSON".
const forbidden = () => new SyntaxError('Object contains forbidden prototype property');
const invalid = () => new SyntaxError('request body is not valid JSON');

/** What is known of one open container while its tokens arrive. */
interface Frame {
  object: boolean;
  /** In an object: the next string token is a key. */
  expectKey: boolean;
  /** The object is the value of a `constructor` key: a `prototype` key in it is refused. */
  constructorValue: boolean;
}

export function createJsonStream(): JsonStream {
  const tokenizer = new Tokenizer();
  // Only the whole document is emitted: no per-value callback on the way.
  const parser = new TokenParser({ paths: ['$'], keepStack: false });
  const frames: Frame[] = [];
  let failure: unknown;
  let result: unknown;
  let done = false;
  let lastKey: string | undefined;

  const check = (info: ParsedTokenInfo) => {
    const top = frames.at(-1);
    switch (info.token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET: {
        if (frames.length >= MAX_JSON_DEPTH) throw tooDeep();
        const object = info.token === TokenType.LEFT_BRACE;
        const constructorValue = object && top?.object === true && lastKey === 'constructor';
        frames.push({ object, expectKey: object, constructorValue });
        lastKey = undefined;
        return;
      }
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        frames.pop();
        lastKey = undefined;
        return;
      case TokenType.COMMA:
        if (top?.object) top.expectKey = true;
        return;
      case TokenType.STRING:
        if (top?.object && top.expectKey) {
          const key = info.value as string;
          if (key === '__proto__' || (top.constructorValue && key === 'prototype')) throw forbidden();
          top.expectKey = false;
          lastKey = key;
          return;
        }
        lastKey = undefined;
        return;
      case TokenType.COLON:
        return;
      default:
        lastKey = undefined;
    }
  };

  tokenizer.onToken = (info) => {
    check(info);
    parser.write(info);
  };
  tokenizer.onError = (error) => {
    failure ??= error;
  };
  parser.onError = (error) => {
    failure ??= error;
    tokenizer.error(error);
  };
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 0) {
      result = value;
      done = true;
    }
  };
  parser.onEnd = () => {
    if (!tokenizer.isEnded) tokenizer.end();
  };

  return {
    write(chunk) {
      if (failure !== undefined) return;
      try {
        tokenizer.write(chunk);
      } catch (error) {
        failure ??= error;
      }
    },
    end() {
      if (failure === undefined && !tokenizer.isEnded) {
        try {
          tokenizer.end();
        } catch (error) {
          failure ??= error;
        }
      }
      if (failure instanceof AppError || failure instanceof SyntaxError) throw failure;
      if (failure !== undefined || !done) throw invalid();
      return result;
    },
  };
}
