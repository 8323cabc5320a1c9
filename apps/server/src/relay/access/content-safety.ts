import type { Json, SAFE_TOOL_NAMES } from '@one-hub/contracts';
import type { OptionService } from '../../api/option/service.js';
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

type SafetyOptions = Pick<OptionService, 'getBoolean' | 'get'>;

/** Keyword: a case-insensitive substring match against SafeKeyWords, one word or phrase a line. */
function keywordTool(keywordsText: string): SafetyTool {
  const keywords = keywordsText
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '');
  return {
    blocks: (texts) =>
      keywords.length > 0 &&
      texts.some((text) => {
        const lower = text.toLowerCase();
        return keywords.some((keyword) => lower.includes(keyword));
      }),
  };
}

type SafeToolName = (typeof SAFE_TOOL_NAMES)[number];

const tools: Record<SafeToolName, (options: SafetyOptions) => SafetyTool> = {
  Keyword: (options) => keywordTool(options.get('SafeKeyWords')),
};

/** The tool for the current settings, rebuilt only when they change. */
let cached: { signature: string; tool: SafetyTool } | undefined;
function toolFor(options: SafetyOptions): SafetyTool {
  const name = options.get('SafeToolName') as SafeToolName;
  const signature = `${name}\n${options.get('SafeKeyWords')}`;
  if (cached?.signature !== signature) cached = { signature, tool: (tools[name] ?? tools.Keyword)(options) };
  return cached.tool;
}

/** Keys whose string values (or strings in their arrays) are text a person wrote. */
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
]);
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

/** Every text of a request body, whatever its surface: chat messages, parts, prompts, inputs, system prompts. */
export function requestTexts(fields: Json): string[] {
  const texts: string[] = [];
  const visit = (value: unknown, underText: boolean): void => {
    if (typeof value === 'string') {
      if (underText) texts.push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item, underText);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (!SKIPPED_KEYS.has(key)) visit(child, TEXT_KEYS.has(key));
    }
  };
  visit(fields, false);
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
