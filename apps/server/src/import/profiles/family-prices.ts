/**
 * Groups and prices of one-api and new-api, which keep them in options (JSON text) rather than
 * in tables, translated to One Hub's `user_groups` and `prices` rows.
 *
 * Price units. All three products bill `quota = tokens × ratio × groupRatio`, where ratio 1 means
 * 1 quota per token = $0.002 per 1K tokens (500 000 quota = $1, reference §4.2). So:
 * - One Hub `input` = the source's `ModelRatio` as is;
 * - One Hub `output` = `ModelRatio × CompletionRatio` (the source bills completion tokens at
 *   ratio × completion ratio, One Hub at `output` directly);
 * - new-api `ModelPrice` (US$ per call) becomes a `times` price: One Hub charges `1000 × input`
 *   quota per call, so `input = price × QuotaPerUnit / 1000`.
 * Worked example: one-api `ModelRatio {"gpt-4o": 2.5}`, `CompletionRatio {"gpt-4o": 3}` (GPT-4o at
 * $5 / $15 per 1M tokens) → One Hub `{model: "gpt-4o", type: "tokens", input: 2.5, output: 7.5}`:
 * 1 000 prompt tokens cost 2 500 quota = $0.005 in both. new-api `ModelPrice {"dall-e-3": 0.04}` →
 * `{type: "times", input: 20, output: 0}`: 1000 × 20 = 20 000 quota = $0.04 per image in both.
 */
import type { LegacyPrice, LegacyUserGroup } from '../legacy.js';
import { toNumberMap, toPositive } from './values.js';

/** What both products use when the `GroupRatio` option was never saved. */
const DEFAULT_GROUP_RATIOS: Record<string, number> = { default: 1, vip: 1, svip: 1 };

/**
 * `GroupRatio` {symbol: ratio} → user groups with One Hub's defaults (600 requests a minute).
 * `usable` (new-api's `UserUsableGroups`, {symbol: description}) marks the groups users may pick
 * for their keys; without it only 'default' is public, as in one-api.
 */
export function groupsFromOptions(options: Map<string, string>, usable?: Record<string, string>): LegacyUserGroup[] {
  const saved = toNumberMap(options.get('GroupRatio'));
  const ratios = Object.keys(saved).length > 0 ? saved : DEFAULT_GROUP_RATIOS;
  return Object.entries(ratios).map(([symbol, ratio]) => ({
    symbol,
    name: usable?.[symbol]?.trim() || symbol,
    ratio: ratio >= 0 ? ratio : 1,
    api_rate: 600,
    public: usable ? symbol in usable : symbol === 'default',
    promotion: false,
    min: 0,
    max: 0,
    enable: true,
  }));
}

/**
 * The completion ratio one-api applies when its `CompletionRatio` option has no entry for a model
 * (relay/billing/ratio/model.go); new-api's built-in rules started from the same list.
 */
export function defaultCompletionRatio(model: string): number {
  const name = model.toLowerCase();
  if (name.startsWith('gpt-3.5')) {
    if (name === 'gpt-3.5-turbo' || name.endsWith('0125')) return 3;
    return name.endsWith('1106') ? 2 : 4 / 3;
  }
  if (name.startsWith('gpt-4o')) return name === 'gpt-4o-2024-05-13' ? 3 : 4;
  if (name.startsWith('gpt-4')) return name.startsWith('gpt-4-turbo') || name.endsWith('preview') ? 3 : 2;
  if (name.startsWith('o1') || name.startsWith('o3') || name.startsWith('o4')) return 4;
  if (name === 'chatgpt-4o-latest') return 3;
  if (name.startsWith('claude-3')) return 5;
  if (['claude-', 'mistral-', 'gemini-', 'grok-'].some((prefix) => name.startsWith(prefix))) return 3;
  if (name.startsWith('deepseek-')) return 2;
  if (name === 'command-r-plus') return 5;
  if (name === 'command-r') return 3;
  return name.startsWith('command') ? 2 : 1;
}

/** Model name prefixes → One Hub owner id (`model_owned_by`; built-in owners use channel type ids). */
const OWNER_PREFIXES: [string, number][] = [
  ['gpt-', 1],
  ['chatgpt', 1],
  ['o1', 1],
  ['o3', 1],
  ['o4', 1],
  ['dall-e', 1],
  ['whisper', 1],
  ['tts-', 1],
  ['text-embedding', 1],
  ['text-moderation', 1],
  ['claude', 14],
  ['gemini', 25],
  ['gemma', 25],
  ['palm', 11],
  ['chat-bison', 11],
  ['ernie', 15],
  ['glm', 16],
  ['chatglm', 16],
  ['qwen', 17],
  ['spark', 18],
  ['360', 19],
  ['hunyuan', 40],
  ['baichuan', 26],
  ['abab', 27],
  ['minimax', 27],
  ['deepseek', 28],
  ['moonshot', 29],
  ['kimi', 29],
  ['mistral', 30],
  ['open-mistral', 30],
  ['codestral', 30],
  ['yi-', 33],
  ['mj_', 34],
  ['@cf/', 35],
  ['command', 36],
  ['stable', 37],
  ['sd3', 37],
  ['suno', 41],
  ['chirp', 41],
  ['llama', 43],
  ['meta-llama', 43],
  ['flux', 46],
  ['jina', 47],
  ['grok', 56],
];

/** The owner a model most likely belongs to, from its name; 0 (unknown) when nothing matches. */
export function guessOwner(model: string): number {
  const name = model.toLowerCase();
  return OWNER_PREFIXES.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 0;
}

export interface PriceSources {
  options: Map<string, string>;
  /** one-api keys a ratio per channel type as `model(type)`: that source type → One Hub owner id. */
  ownerOfSourceType?: (sourceType: number) => number;
  /** Known owners by model (new-api's `models.vendor_id`), checked before guessing from the name. */
  owners?: Map<string, number>;
  /** One Hub `extra_ratios` for a model (new-api's cache and audio ratios). */
  extraRatios?: (model: string, completionRatio: number) => Record<string, number>;
}

/** `glm-4(16)` → { name: 'glm-4', sourceType: 16 }. */
function splitTypedKey(key: string): { name: string; sourceType?: number } {
  const match = /^(.*)\((\d+)\)$/.exec(key);
  return match?.[1] ? { name: match[1], sourceType: Number(match[2]) } : { name: key };
}

export function pricesFromOptions(sources: PriceSources): LegacyPrice[] {
  const { options } = sources;
  const modelRatio = toNumberMap(options.get('ModelRatio'));
  const completion = toNumberMap(options.get('CompletionRatio'));
  const perCall = toNumberMap(options.get('ModelPrice'));
  const quotaPerUnit = toPositive(options.get('QuotaPerUnit'), 500_000);
  const prices = new Map<string, LegacyPrice>();
  const owner = (name: string, sourceType?: number) => {
    const known = sources.owners?.get(name);
    if (known !== undefined) return known;
    const fromType = sourceType === undefined ? 0 : (sources.ownerOfSourceType?.(sourceType) ?? 0);
    return fromType || guessOwner(name);
  };
  // A fixed price per call wins over a ratio in new-api, as it does here.
  for (const [name, usd] of Object.entries(perCall)) {
    if (usd < 0) continue;
    const input = (usd * quotaPerUnit) / 1000;
    prices.set(name, price(name, 'times', owner(name), input, 0, {}));
  }
  // Plain keys first: a `model(type)` entry only fills in a model that has no plain entry.
  const keys = Object.keys(modelRatio).sort((a, b) => Number(/\)$/.test(a)) - Number(/\)$/.test(b)));
  for (const key of keys) {
    const { name, sourceType } = splitTypedKey(key);
    const ratio = modelRatio[key] ?? 0;
    if (prices.has(name) || ratio < 0) continue;
    const completionRatio = completion[key] ?? completion[name] ?? defaultCompletionRatio(name);
    const extra = sources.extraRatios?.(name, completionRatio) ?? {};
    prices.set(name, price(name, 'tokens', owner(name, sourceType), ratio, ratio * completionRatio, extra));
  }
  return [...prices.values()];
}

function price(
  model: string,
  type: LegacyPrice['type'],
  channelType: number,
  input: number,
  output: number,
  extra: Record<string, number>,
): LegacyPrice {
  return { model, type, channel_type: channelType, input, output, locked: false, extra_ratios: extra };
}
