import { isRecord } from './json.js';

/**
 * The rules an option value must follow beyond its type: bounds, URL formats, fixed choices and
 * the shape of JSON values. The server enforces them on PUT /api/option/ and the console checks
 * its forms with the same functions, so the two never disagree.
 */

export type OptionType = 'boolean' | 'integer' | 'number' | 'string' | 'json';

/**
 * `url`: http(s) URL; `urlOrPath`: also a site path (`/logo.png`) or an image data URL; `proxyUrl`: http(s) or socks5;
 * `timeZone`: an IANA zone name the runtime knows (`Asia/Shanghai`, `UTC`).
 */
export type OptionFormat = 'url' | 'urlOrPath' | 'proxyUrl' | 'timeZone';

/**
 * JSON shapes: `chatLinks` a list of `{id, name, url, show, sort}` (the server fills a missing id;
 * sort may also be digits in a string, or empty, as the reference's console may leave it);
 * `discountMap` `{"<amount>": ratio}` with amounts above 0 and ratios in (0, 1]; `ratioMap`
 * `{"<group>": ratio ≥ 0}`; `maxTokensMap` `{"<model>": whole number ≥ 1}`; `flagMap`
 * `{"<model>": true|false}`.
 */
export type OptionShape = 'chatLinks' | 'discountMap' | 'ratioMap' | 'maxTokensMap' | 'flagMap';

export interface OptionDefinition {
  type: OptionType;
  default: string;
  /** Inclusive lower bound of a number. */
  min?: number;
  /** Exclusive lower bound of a number ("above 0"). */
  above?: number;
  /** Inclusive upper bound of a number. */
  max?: number;
  format?: OptionFormat;
  shape?: OptionShape;
  /** The only values allowed for a string. */
  choices?: readonly string[];
}

/** What is wrong with a value, for a translated message in the console (the server sends `error`). */
export type OptionIssue =
  | { code: 'boolean' | 'integer' | 'number' | 'json' | OptionFormat }
  | { code: 'min'; min: number }
  | { code: 'above'; min: number }
  | { code: 'max'; max: number }
  | { code: 'choice'; choices: readonly string[] }
  | { code: 'shape'; shape: OptionShape; problem: ShapeProblem; at: string; index?: number };

/**
 * `object`/`array`: the whole value has the wrong kind; `key`/`value`: a map entry (`at` names
 * its key); `entry`/`name`/`url`/`show`/`sort`/`id`: a chat link (`index` counts from 0).
 */
export type ShapeProblem = 'object' | 'array' | 'key' | 'value' | 'entry' | 'name' | 'url' | 'show' | 'sort' | 'id';

export type OptionCheck = { value: string } | { error: string; issue: OptionIssue };

/** Whether the runtime (Node or the browser) knows `timeZone`. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatChecks: Record<OptionFormat, (text: string) => boolean> = {
  url: (text) => /^https?:\/\/[^\s/?#]+\S*$/i.test(text),
  urlOrPath: (text) => /^(https?:\/\/[^\s/?#]+\S*|\/\S*|data:image\/\S+)$/i.test(text),
  proxyUrl: (text) => /^(https?|socks5h?):\/\/[^\s/?#]+\S*$/i.test(text),
  timeZone: isTimeZone,
};

const formatTexts: Record<OptionFormat, string> = {
  url: 'must be an http(s) URL',
  urlOrPath: 'must be an http(s) URL or a path starting with /',
  proxyUrl: 'must be a proxy URL (http, https or socks5)',
  timeZone: 'must be a time zone name such as UTC or Asia/Shanghai',
};

const fail = (key: string, text: string, issue: OptionIssue): OptionCheck => ({ error: `${key} ${text}`, issue });

/** Bounds of an integer or number option. */
export function checkBounds(key: string, definition: OptionDefinition, value: number): OptionCheck | null {
  if (definition.min !== undefined && value < definition.min) {
    return fail(key, `must be at least ${definition.min}`, { code: 'min', min: definition.min });
  }
  if (definition.above !== undefined && value <= definition.above) {
    return fail(key, `must be greater than ${definition.above}`, { code: 'above', min: definition.above });
  }
  if (definition.max !== undefined && value > definition.max) {
    return fail(key, `must be at most ${definition.max}`, { code: 'max', max: definition.max });
  }
  return null;
}

/** Format and choices of a string option; an empty string is always allowed (the feature is off). */
export function checkText(key: string, definition: OptionDefinition, value: string): OptionCheck | null {
  const text = value.trim();
  if (text === '') return null;
  if (definition.format && !formatChecks[definition.format](text)) {
    return fail(key, formatTexts[definition.format], { code: definition.format });
  }
  if (definition.choices && !definition.choices.includes(text)) {
    return fail(key, `must be one of ${definition.choices.join(', ')}`, {
      code: 'choice',
      choices: definition.choices,
    });
  }
  return null;
}

type ShapeFailure = { problem: ShapeProblem; at: string; text: string; index?: number };

function checkMap(
  value: unknown,
  keyOk: (key: string) => boolean,
  valueOk: (entry: unknown) => boolean,
  texts: { key?: string; value: string },
): ShapeFailure | null {
  if (!isRecord(value)) return { problem: 'object', at: '', text: 'must be a JSON object' };
  for (const [key, entry] of Object.entries(value)) {
    if (!keyOk(key)) return { problem: 'key', at: key, text: `key "${key}" ${texts.key ?? 'is not allowed'}` };
    if (!valueOk(entry)) return { problem: 'value', at: key, text: `value of "${key}" ${texts.value}` };
  }
  return null;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A number, or what the reference's console may leave in its sort cell: digits or nothing. */
const isSortValue = (sort: unknown): boolean =>
  isNumber(sort) || (typeof sort === 'string' && /^\d*$/.test(sort.trim()));
/** An id to keep (a string or number) or none at all, which the server fills in. */
const isIdValue = (id: unknown): boolean =>
  id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

function checkChatLinks(value: unknown): ShapeFailure | null {
  if (!Array.isArray(value)) return { problem: 'array', at: '', text: 'must be a JSON list of links' };
  for (const [index, entry] of value.entries()) {
    const at = String(index + 1);
    const failure = (problem: ShapeProblem, text: string): ShapeFailure => ({
      problem,
      at,
      index,
      text: `link ${at} ${text}`,
    });
    if (!isRecord(entry)) return failure('entry', 'must be an object with name, url, show and sort');
    if (typeof entry.name !== 'string' || !entry.name.trim()) return failure('name', 'needs a name');
    if (typeof entry.url !== 'string' || !entry.url.trim()) return failure('url', 'needs a url');
    if (entry.show !== undefined && typeof entry.show !== 'boolean')
      return failure('show', 'show must be true or false');
    if (entry.sort !== undefined && !isSortValue(entry.sort)) return failure('sort', 'sort must be a number');
    if (!isIdValue(entry.id)) return failure('id', 'id must be a string or a number');
  }
  return null;
}

const shapeCheckers: Record<OptionShape, (value: unknown) => ShapeFailure | null> = {
  chatLinks: checkChatLinks,
  discountMap: (value) =>
    checkMap(
      value,
      (key) => key.trim() !== '' && Number(key) > 0,
      (ratio) => isNumber(ratio) && ratio > 0 && ratio <= 1,
      { key: 'must be an amount greater than 0', value: 'must be a ratio greater than 0 and at most 1' },
    ),
  ratioMap: (value) =>
    checkMap(
      value,
      (key) => key.trim() !== '',
      (ratio) => isNumber(ratio) && ratio >= 0,
      { key: 'must not be empty', value: 'must be a number of at least 0' },
    ),
  maxTokensMap: (value) =>
    checkMap(
      value,
      (key) => key.trim() !== '',
      (tokens) => isNumber(tokens) && Number.isInteger(tokens) && tokens >= 1,
      { key: 'must not be empty', value: 'must be a whole number of at least 1' },
    ),
  flagMap: (value) =>
    checkMap(
      value,
      (key) => key.trim() !== '',
      (flag) => typeof flag === 'boolean',
      { key: 'must not be empty', value: 'must be true or false' },
    ),
};

/** Parses a JSON option and checks its shape. */
export function checkJson(key: string, definition: OptionDefinition, value: string): OptionCheck | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return fail(key, 'must be valid JSON', { code: 'json' });
  }
  if (!definition.shape) return null;
  const failure = shapeCheckers[definition.shape](parsed);
  if (!failure) return null;
  const { problem, at, text, index } = failure;
  return fail(key, text, {
    code: 'shape',
    shape: definition.shape,
    problem,
    at,
    ...(index === undefined ? {} : { index }),
  });
}
