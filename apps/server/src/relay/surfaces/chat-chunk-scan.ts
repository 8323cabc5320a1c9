/**
 * Reads the generated text of an OpenAI chat or completion chunk without JSON.parse, for the common
 * shape only: it runs once per streamed event, and parsing builds every object of the chunk to read
 * one string. Anything unusual — an escape or control character anywhere, a `usage` that is not
 * null, tool calls, a `message`, a key given twice, a choice that is not an object, nesting deeper
 * than a chunk has — answers undefined, and the caller parses the event as before. What it answers
 * is what `choicesText(JSON.parse(data))` would give, and only for data JSON.parse accepts.
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MAX_DEPTH = 32;

/** Escapes and raw control characters: without them every quote delimits a string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNUSUAL = /[\u0000-\u001f\\]/;

// The scan's state lives in the module: one event is scanned at a time, and no object is made per event.
let source = '';
let at = 0;

const code = () => source.charCodeAt(at);
const isDigit = (value: number) => value >= ZERO && value <= NINE;

function skipSpaces(): void {
  while (source.charCodeAt(at) === SPACE) at++;
}

/** At a quote: the string's end (after its closing quote), or -1. */
function stringEnd(): number {
  const close = source.indexOf('"', at + 1);
  return close < 0 ? -1 : close + 1;
}

/** At a key's quote: whether it is `name`; if so, moves past it and its colon. */
function takeKey(name: string): boolean {
  if (!source.startsWith(name, at + 1) || source.charCodeAt(at + 1 + name.length) !== QUOTE) return false;
  at += name.length + 2;
  return takeColon();
}

function takeColon(): boolean {
  skipSpaces();
  if (code() !== COLON) return false;
  at++;
  skipSpaces();
  return true;
}

/** At a quote: the string's text, moving past it; undefined if it never closes. */
function takeString(): string | undefined {
  const end = stringEnd();
  if (end < 0) return undefined;
  const text = source.slice(at + 1, end - 1);
  at = end;
  return text;
}

function skipDigits(): boolean {
  if (!isDigit(code())) return false;
  while (isDigit(code())) at++;
  return true;
}

/** JSON's number grammar, exactly: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function skipNumber(): boolean {
  if (code() === MINUS) at++;
  if (code() === ZERO) at++;
  else if (!skipDigits()) return false;
  if (code() === DOT) {
    at++;
    if (!skipDigits()) return false;
  }
  if ((code() | 0x20) === 0x65) {
    at++;
    if (code() === PLUS || code() === MINUS) at++;
    if (!skipDigits()) return false;
  }
  return true;
}

function skipWord(word: string): boolean {
  if (!source.startsWith(word, at)) return false;
  at += word.length;
  return true;
}

/** After a member or an element: moves past a comma (true) or the closing `close` (false). */
function next(close: number): boolean | undefined {
  skipSpaces();
  const found = code();
  at++;
  if (found === COMMA) {
    skipSpaces();
    return true;
  }
  return found === close ? false : undefined;
}

/** Moves past one JSON value of any kind, checking its grammar; false if it is not JSON. */
function skipValue(depth: number): boolean {
  const first = code();
  if (first === QUOTE) {
    at = stringEnd();
    return at > 0;
  }
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    if (depth >= MAX_DEPTH) return false;
    const close = first === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
    at++;
    skipSpaces();
    if (code() === close) {
      at++;
      return true;
    }
    for (;;) {
      if (first === OPEN_OBJECT) {
        if (code() !== QUOTE) return false;
        at = stringEnd();
        if (at < 0 || !takeColon()) return false;
      }
      if (!skipValue(depth + 1)) return false;
      const more = next(close);
      if (more === undefined) return false;
      if (!more) return true;
    }
  }
  if (first === 0x74) return skipWord('true');
  if (first === 0x66) return skipWord('false');
  if (first === 0x6e) return skipWord('null');
  return skipNumber();
}

/** A string value, '' for any other JSON value (as `typeof … === 'string'` reads it); undefined if not JSON. */
function takeStringOrNothing(): string | undefined {
  if (code() === QUOTE) return takeString();
  return skipValue(1) ? '' : undefined;
}

/**
 * Walks an object's members, handing each key's quote position to `member`, which moves past the
 * value (false when it cannot). Answers false when the object is not read to its end.
 */
function walkObject(member: () => boolean): boolean {
  if (code() !== OPEN_OBJECT) return false;
  at++;
  skipSpaces();
  if (code() === CLOSE_OBJECT) {
    at++;
    return true;
  }
  for (;;) {
    if (code() !== QUOTE || !member()) return false;
    const more = next(CLOSE_OBJECT);
    if (more === undefined) return false;
    if (!more) return true;
  }
}

/** Moves past a key and its value that the scan has no use for. */
function skipMember(): boolean {
  at = stringEnd();
  return at > 0 && takeColon() && skipValue(1);
}

// The fields of the choice being read; undefined until seen (a second sighting gives up).
let choiceText: string | undefined;
let content: string | undefined;
let reasoning: string | undefined;
let refusal: string | undefined;
let sawDelta = false;

function deltaMember(): boolean {
  if (takeKey('content')) {
    if (content !== undefined) return false;
    content = takeStringOrNothing();
    return content !== undefined;
  }
  if (takeKey('reasoning_content')) {
    if (reasoning !== undefined) return false;
    reasoning = takeStringOrNothing();
    return reasoning !== undefined;
  }
  if (takeKey('refusal')) {
    if (refusal !== undefined) return false;
    refusal = takeStringOrNothing();
    return refusal !== undefined;
  }
  // Tool calls are counted as their JSON.stringify: only a null one is read here.
  if (takeKey('tool_calls')) return skipWord('null');
  return skipMember();
}

function choiceMember(): boolean {
  if (takeKey('text')) {
    if (choiceText !== undefined) return false;
    choiceText = takeStringOrNothing();
    return choiceText !== undefined;
  }
  if (takeKey('delta')) {
    if (sawDelta) return false;
    sawDelta = true;
    return walkObject(deltaMember);
  }
  if (source.startsWith('message"', at + 1)) return false;
  return skipMember();
}

/** At `[`: the text of every choice, joined; undefined if the array is not the usual shape. */
function takeChoices(): string | undefined {
  if (code() !== OPEN_ARRAY) return undefined;
  at++;
  skipSpaces();
  let text = '';
  if (code() === CLOSE_ARRAY) {
    at++;
    return text;
  }
  for (;;) {
    choiceText = content = reasoning = refusal = undefined;
    sawDelta = false;
    if (!walkObject(choiceMember)) return undefined;
    text += (choiceText ?? '') + (content ?? '') + (reasoning ?? '') + (refusal ?? '');
    const more = next(CLOSE_ARRAY);
    if (more === undefined) return undefined;
    if (!more) return text;
  }
}

let chunkText: string | undefined;
let sawUsage = false;

function chunkMember(): boolean {
  if (takeKey('choices')) {
    if (chunkText !== undefined) return false;
    chunkText = takeChoices();
    return chunkText !== undefined;
  }
  if (takeKey('usage')) {
    if (sawUsage) return false;
    sawUsage = true;
    return skipWord('null');
  }
  return skipMember();
}

/**
 * The generated text of a chunk that surely reports no usage ('' for none), or undefined when
 * the chunk must be parsed: it may carry usage or tool calls, or is not of the usual shape.
 */
export function scanChatChunk(data: string): string | undefined {
  if (UNUSUAL.test(data)) return undefined;
  source = data;
  at = 0;
  chunkText = undefined;
  sawUsage = false;
  skipSpaces();
  const read = walkObject(chunkMember);
  skipSpaces();
  const whole = read && at === source.length;
  source = '';
  return whole ? (chunkText ?? '') : undefined;
}
