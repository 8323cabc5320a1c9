import type { Json, SAFE_TOOL_NAMES } from '@one-hub/contracts';
import type { OptionReader } from '../../domain/options.js';
import { AppError } from '../../platform/errors.js';

/**
 * Content safety (EnableSafe, reference §2.4): before anything is reserved or sent, the text a
 * request carries is checked by the tool SafeToolName names; a hit refuses the request with 400
 * `content_security_policy_blocking`, whatever the surface. The refusal never quotes the text.
 * A tool sees only the texts; adding one (a moderation call, a regex list) is one entry in `tools`.
 */
export interface SafetyTool {
  /** True when any of the texts must be refused. */
  blocks(texts: readonly string[]): boolean;
}

type SafetyOptions = Pick<OptionReader, 'getBoolean' | 'get'>;

/** Characters that show as nothing (zero-width spaces and joiners, word joiner, BOM, soft hyphen…). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The form keywords and texts are compared in: NFKC (full-width and other compatibility letters
 * become plain ones), invisible characters removed (they would split a word), lower case. Plain
 * ASCII, most requests' text, only needs the lower case.
 */
export function matchingForm(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
}

/** Keyword: a substring match against SafeKeyWords, one word or phrase a line, in matchingForm. */
function keywordTool(keywordsText: string): SafetyTool {
  const keywords = keywordsText
    .split(/\r?\n/)
    .map((line) => matchingForm(line.trim()))
    .filter((line) => line !== '');
  return {
    blocks: (texts) =>
      keywords.length > 0 &&
      texts.some((text) => {
        const comparable = matchingForm(text);
        return keywords.some((keyword) => comparable.includes(keyword));
      }),
  };
}

type SafeToolName = (typeof SAFE_TOOL_NAMES)[number];

const tools: Record<SafeToolName, (options: SafetyOptions) => SafetyTool> = {
  Keyword: (options) => keywordTool(options.get('SafeKeyWords')),
};

/** The tool for the current settings, rebuilt (keywords normalised once) only when they change. */
let cached: { name: string; keywords: string; tool: SafetyTool } | undefined;
function toolFor(options: SafetyOptions): SafetyTool {
  const name = options.get('SafeToolName') as SafeToolName;
  const keywords = options.get('SafeKeyWords');
  if (cached?.name !== name || cached.keywords !== keywords) {
    cached = { name, keywords, tool: (tools[name] ?? tools.Keyword)(options) };
  }
  return cached.tool;
}

/**
 * Keys whose string values (or strings in their arrays) are text a person or a model wrote and the
 * upstream model reads: messages, prompts, system prompts, and the names and descriptions of
 * messages, tools and their parameters. An object under one of them (Claude's tool_use `input`) is
 * read whole.
 */
const TEXT_KEYS = new Set([
  'content',
  'text',
  'prompt',
  'input',
  'instructions',
  'system',
  'query',
  'documents',
  'negative_prompt',
  'name',
  'description',
]);
/**
 * Keys under which every string is read, whatever its key: tool-call arguments (OpenAI's JSON
 * text, Gemini's `args`), Gemini's function results, and tools' parameter schemas.
 */
const WHOLE_KEYS = new Set(['arguments', 'args', 'response', 'parameters', 'input_schema']);
/** Keys holding media or metadata, never read: image data and URLs, audio, files. */
const SKIPPED_KEYS = new Set([
  'image_url',
  'inline_data',
  'inlineData',
  'source',
  'file_data',
  'fileData',
  'input_audio',
  'b64_json',
  'audio',
]);

type Reading = 'skip' | 'text' | 'whole';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function readingOf(key: string, child: unknown): Reading {
  if (SKIPPED_KEYS.has(key)) return 'skip';
  if (WHOLE_KEYS.has(key)) return 'whole';
  if (TEXT_KEYS.has(key)) return isObject(child) ? 'whole' : 'text';
  return 'skip';
}

/** Tool-call arguments as OpenAI sends them, JSON text: its strings too, as `\u` escapes would hide a word. */
function argumentStrings(text: string, visit: (value: unknown, reading: Reading) => void): void {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return;
  try {
    visit(JSON.parse(text) as unknown, 'whole');
  } catch {
    // Not JSON: its text was read as it is.
  }
}

/**
 * Every text of a request body, whatever its surface: chat messages, parts, prompts, inputs, system
 * prompts, names, tool descriptions and schemas, tool-call arguments and function results.
 */
export function requestTexts(fields: Json): string[] {
  const texts: string[] = [];
  const visit = (value: unknown, reading: Reading): void => {
    if (typeof value === 'string') {
      if (reading !== 'skip') texts.push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item, reading);
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      // Inside tool-call arguments every key is the client's own, `image_url` included.
      const childReading = reading === 'whole' ? 'whole' : readingOf(key, child);
      visit(child, childReading);
      if (key === 'arguments' && typeof child === 'string') argumentStrings(child, visit);
    }
  };
  visit(fields, 'skip');
  return texts;
}

export function contentSafetyRefusal(): AppError {
  return new AppError('bad_request', 'content contains sensitive information', {
    details: { code: 'content_security_policy_blocking' },
  });
}

/** Refuses the request when EnableSafe is on and its text is blocked; nothing is done with it off. */
export function checkContentSafety(options: SafetyOptions, fields: Json): void {
  if (!options.getBoolean('EnableSafe')) return;
  if (toolFor(options).blocks(requestTexts(fields))) throw contentSafetyRefusal();
}
