/** How deep arrays and objects may nest in JSON the server accepts; no API of it needs more. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let index = at - 1; index >= 0 && text.charCodeAt(index) === BACKSLASH; index--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, told without parsing it: code
 * that walks parsed JSON recursively would exhaust the stack on a few kilobytes of brackets. One
 * pass that skips strings (found with indexOf, so text of mostly strings costs little); malformed
 * text is left for the parser to report.
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  const length = text.length;
  if (length <= limit) return false;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      let end = text.indexOf('"', index + 1);
      while (end > 0 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      index = end;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
