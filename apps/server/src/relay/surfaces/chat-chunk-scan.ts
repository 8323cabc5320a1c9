/**
 * Reads the generated text of an OpenAI chat chunk without JSON.parse, for the usual shape only: it
 * runs once per streamed event, and parsing builds every object of the chunk to read one string.
 * One anchored regular expression checks the whole chunk against JSON's grammar and takes the text:
 * compact JSON, one object whose members are scalars with no escapes, `"usage":null`, and `choices`
 * holding at most one choice, whose `delta` has at most a `content` beside other scalars. Anything
 * else — an escape, whitespace, a usage that is not null, tool calls, reasoning, a second choice, a
 * nested value — answers undefined, and the caller parses the event as before. What it answers is
 * what `choicesText(JSON.parse(data))` gives, and only for data JSON.parse accepts with no usage.
 */

/** A string without escapes or control characters: its text is what is between its quotes. */
const PLAIN_STRING = String.raw`"[^"\\\u0000-\u001f]*"`;
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const SCALAR = `(?:${PLAIN_STRING}|${NUMBER}|true|false|null)`;
/**
 * A member the text does not depend on. Every key the text or the usage is read from is left out,
 * so none can come twice (JSON.parse would keep the last) or hide in a member skipped over.
 */
const OTHER_MEMBER = String.raw`"(?!(?:choices|usage|text|delta|message|content|reasoning_content|refusal|tool_calls)")[^"\\\u0000-\u001f]*":${SCALAR}`;
const OTHERS_BEFORE = `(?:${OTHER_MEMBER},)*`;
const OTHERS_AFTER = `(?:,${OTHER_MEMBER})*`;
const CONTENT = String.raw`"content":(?:"([^"\\\u0000-\u001f]*)"|null)`;
const DELTA = String.raw`\{(?:${OTHERS_BEFORE}${CONTENT}${OTHERS_AFTER}|(?:${OTHER_MEMBER}${OTHERS_AFTER})?)\}`;
const CHOICE = String.raw`\{${OTHERS_BEFORE}"delta":${DELTA}${OTHERS_AFTER}\}`;
const TOP_MEMBER = `(?:${OTHER_MEMBER}|"usage":null)`;

const USUAL_CHUNK = new RegExp(String.raw`^\{(?:${TOP_MEMBER},)*"choices":\[(?:${CHOICE})?\](?:,${TOP_MEMBER})*\}$`);

/** Longer chunks are parsed: the expression's backtracking stays short on a short text. */
const MAX_SCANNED_CHARS = 16 * 1024;

/**
 * The generated text of a chunk that surely reports no usage ('' for none), or undefined when
 * the chunk must be parsed: it may carry usage or tool calls, or is not of the usual shape.
 */
export function scanChatChunk(data: string): string | undefined {
  if (data.length > MAX_SCANNED_CHARS) return undefined;
  const match = USUAL_CHUNK.exec(data);
  return match ? (match[1] ?? '') : undefined;
}
