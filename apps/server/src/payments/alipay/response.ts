import type { KeyObject } from 'node:crypto';
import { rsa2Verifies } from './sign.js';

/**
 * Alipay signs a synchronous answer over the exact text of its `<method>_response` member, as it
 * was sent: `{"alipay_trade_precreate_response":{…},"sign":"…"}`. Re-serialising the parsed object
 * would change escapes, spacing or key order and break the check, so the member's bytes are cut
 * out of the body as they arrived. JSON's structural characters are ASCII and never occur inside a
 * UTF-8 multi-byte sequence, so scanning bytes is exact.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x7b, 0x5b]); // { [
const CLOSERS = new Set([0x7d, 0x5d]); // } ]
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const LITERAL_END = new Set([0x2c, 0x7d, 0x5d, ...WHITESPACE]); // , } ] and whitespace

const skipWhitespace = (body: Buffer, index: number): number => {
  let at = index;
  while (at < body.length && WHITESPACE.has(body[at] as number)) at += 1;
  return at;
};

/** Index just past the string that opens at `index`. */
function stringEnd(body: Buffer, index: number): number {
  let at = index + 1;
  while (at < body.length) {
    if (body[at] === BACKSLASH) at += 2;
    else if (body[at] === QUOTE) return at + 1;
    else at += 1;
  }
  throw new Error('unterminated string');
}

/** Index just past the value (object, array, string or literal) that starts at `index`. */
function valueEnd(body: Buffer, index: number): number {
  const first = body[index] as number;
  if (first === QUOTE) return stringEnd(body, index);
  if (!OPENERS.has(first)) {
    let at = index;
    while (at < body.length && !LITERAL_END.has(body[at] as number)) at += 1;
    return at;
  }
  let depth = 0;
  let at = index;
  while (at < body.length) {
    const byte = body[at] as number;
    if (byte === QUOTE) {
      at = stringEnd(body, at);
      continue;
    }
    if (OPENERS.has(byte)) depth += 1;
    else if (CLOSERS.has(byte)) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  throw new Error('unterminated value');
}

/** The raw bytes of each member of the top-level object, by name. Call only on text JSON.parse accepted. */
export function rawMembers(body: Buffer): Map<string, Buffer> {
  const members = new Map<string, Buffer>();
  let at = skipWhitespace(body, 0);
  if (body[at] !== 0x7b) throw new Error('the answer is not a JSON object');
  at = skipWhitespace(body, at + 1);
  while (at < body.length && body[at] !== 0x7d) {
    const nameEnd = stringEnd(body, at);
    const name = JSON.parse(body.subarray(at, nameEnd).toString('utf8')) as string;
    at = skipWhitespace(body, skipWhitespace(body, nameEnd) + 1); // past the colon
    const end = valueEnd(body, at);
    if (members.has(name)) throw new Error(`the answer names ${name} twice`);
    members.set(name, body.subarray(at, end));
    at = skipWhitespace(body, end);
    if (body[at] === 0x2c) at = skipWhitespace(body, at + 1);
  }
  return members;
}

/** What the answer of one API method says, with whether Alipay's signature over it holds. */
export interface AlipayAnswer {
  fields: Record<string, unknown>;
  /** `signed` = signature present and valid; `unsigned` = none given; `forged` = present, does not verify. */
  signature: 'signed' | 'unsigned' | 'forged';
}

/**
 * Reads the answer to `method` (`alipay.trade.precreate` → `alipay_trade_precreate_response`, or
 * `error_response` when Alipay could not route the call). Throws with a sentence when it is not one.
 */
export function readAnswer(body: Buffer, method: string, alipayPublicKey: KeyObject): AlipayAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error('Alipay answered with something that is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('Alipay answered with no object');
  const members = rawMembers(body);
  const memberName = `${method.replace(/\./g, '_')}_response`;
  const name = members.has(memberName) ? memberName : 'error_response';
  const raw = members.get(name);
  const fields = (parsed as Record<string, unknown>)[name];
  if (!raw || typeof fields !== 'object' || fields === null) throw new Error(`Alipay's answer has no ${memberName}`);
  const sign = (parsed as Record<string, unknown>).sign;
  const signature =
    typeof sign !== 'string' || sign === ''
      ? 'unsigned'
      : rsa2Verifies(raw, sign, alipayPublicKey)
        ? 'signed'
        : 'forged';
  return { fields: fields as Record<string, unknown>, signature };
}
