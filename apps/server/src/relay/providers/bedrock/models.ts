/**
 * Which Bedrock model id a channel's model name stands for, and which API serves it.
 *
 * Claude models go through InvokeModel with Anthropic's own Messages body; Bedrock names them
 * `anthropic.<name>-v<version>:<revision>` (base models) or with a geography prefix (`us.`, `eu.`,
 * `apac.`, `global.`, … cross-region inference profiles), or by ARN. Every other model goes through
 * the Converse API, which speaks one format for all of them.
 *
 * The table holds the Claude ids of Anthropic's "Claude on Amazon Bedrock" model table and AWS's
 * model cards. Plain Anthropic names (dated or their undated aliases) are mapped through it; a
 * `claude-…` name the table does not know is sent as `anthropic.<name>`, the form Bedrock uses for
 * its newest models (`anthropic.claude-sonnet-4-6`). Names that already look like Bedrock ids,
 * inference profiles or ARNs go unchanged.
 */

const THINKING_SUFFIX = '#thinking';

/** Anthropic API model name → Bedrock base model id. */
export const CLAUDE_BEDROCK_IDS: Readonly<Record<string, string>> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
  'claude-sonnet-4-5-20250929': 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'claude-haiku-4-5-20251001': 'anthropic.claude-haiku-4-5-20251001-v1:0',
  'claude-opus-4-5-20251101': 'anthropic.claude-opus-4-5-20251101-v1:0',
  'claude-opus-4-6': 'anthropic.claude-opus-4-6-v1',
  'claude-sonnet-4-6': 'anthropic.claude-sonnet-4-6',
};

/** Undated names Anthropic's API accepts (and names clients commonly send) → the dated model. */
const CLAUDE_ALIASES: Readonly<Record<string, string>> = {
  'claude-instant-1': 'claude-instant-1.2',
  'claude-3-opus-latest': 'claude-3-opus-20240229',
  'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-20241022',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku-20241022',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet-20250219',
  'claude-sonnet-4-0': 'claude-sonnet-4-20250514',
  'claude-sonnet-4': 'claude-sonnet-4-20250514',
  'claude-opus-4-0': 'claude-opus-4-20250514',
  'claude-opus-4': 'claude-opus-4-20250514',
  'claude-opus-4-1': 'claude-opus-4-1-20250805',
  'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5': 'claude-haiku-4-5-20251001',
  'claude-opus-4-5': 'claude-opus-4-5-20251101',
};

/** The model name without a trailing `#thinking` switch, and whether it had one. */
export function splitThinking(model: string): { name: string; thinking: boolean } {
  return model.endsWith(THINKING_SUFFIX)
    ? { name: model.slice(0, -THINKING_SUFFIX.length), thinking: true }
    : { name: model, thinking: false };
}

/** The Bedrock model id (or profile, or ARN) to call for a channel's model name. */
export function bedrockModelId(model: string): string {
  const { name } = splitThinking(model.trim());
  const dated = CLAUDE_ALIASES[name] ?? name;
  const known = CLAUDE_BEDROCK_IDS[dated];
  if (known) return known;
  // Plain Anthropic names only; `anthropic.…`, `us.anthropic.…`, `meta.…`, ARNs stay as they are.
  if (/^claude-/.test(name)) return `anthropic.${name}`;
  return name;
}

/** Whether the model is Claude, served by InvokeModel with Anthropic's body; else Converse. */
export function isClaudeModel(model: string): boolean {
  return /(?:^|[./])(?:anthropic\.)?claude-/.test(splitThinking(model.trim()).name);
}

/**
 * The Anthropic-style family name of a Claude model id (`us.anthropic.claude-3-5-sonnet-20241022-v2:0`
 * → `claude-3-5-sonnet-20241022`), for the choices the Anthropic translation makes by model name
 * (default max_tokens, whether the model can think).
 */
export function claudeFamilyName(model: string): string {
  const { name } = splitThinking(model.trim());
  const at = name.lastIndexOf('claude-');
  if (at < 0) return name;
  const id = name.slice(at);
  if (id.startsWith('claude-v2')) return id === 'claude-v2:1' ? 'claude-2.1' : 'claude-2.0';
  if (id.startsWith('claude-instant')) return 'claude-instant-1.2';
  return id.replace(/-v\d+(?::\d+)?$/, '');
}

/**
 * The model id as it goes into the URL path: every reserved character escaped (`:` → `%3A`,
 * `/` of an ARN → `%2F`), as the AWS SDKs encode a path label.
 */
export function encodeModelId(id: string): string {
  return encodeURIComponent(id).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
