import { isRecord, optionDefinitions } from '@one-hub/contracts';
import type { OptionReader } from '../../domain/options.js';
import type { TranslationSettings } from '../providers/types.js';

/**
 * The settings translations follow, read from the option service's memory on every call so a
 * change applies to the next request. The JSON options are parsed again only when their text
 * changed; a value that is not the shape the settings screen saves counts as the default.
 */

type Options = Pick<OptionReader, 'get' | 'getNumber'>;

function numberMap(text: string): Record<string, number> {
  const parsed = parse(text);
  const map: Record<string, number> = {};
  for (const [model, value] of Object.entries(parsed)) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1) map[model] = value;
  }
  return map;
}

function flagMap(text: string): Record<string, boolean> {
  const parsed = parse(text);
  const map: Record<string, boolean> = {};
  for (const [model, value] of Object.entries(parsed)) if (typeof value === 'boolean') map[model] = value;
  return map;
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/** The last texts read and what they gave; the options rarely change. */
let cached: { maxTokens: string; openThink: string; share: number; settings: TranslationSettings } | undefined;

const DEFAULTS: TranslationSettings = {
  claudeDefaultMaxTokens: numberMap(optionDefinitions.ClaudeDefaultMaxTokens.default),
  claudeBudgetShare: Number(optionDefinitions.ClaudeBudgetTokensPercentage.default),
  geminiOpenThink: flagMap(optionDefinitions.GeminiOpenThink.default),
};

export function translationSettings(options: Options | undefined): TranslationSettings {
  if (!options) return DEFAULTS;
  const maxTokens = options.get('ClaudeDefaultMaxTokens');
  const openThink = options.get('GeminiOpenThink');
  const share = options.getNumber('ClaudeBudgetTokensPercentage');
  if (cached && cached.maxTokens === maxTokens && cached.openThink === openThink && cached.share === share) {
    return cached.settings;
  }
  const settings: TranslationSettings = {
    claudeDefaultMaxTokens: numberMap(maxTokens),
    claudeBudgetShare: share > 0 && share <= 1 ? share : DEFAULTS.claudeBudgetShare,
    geminiOpenThink: flagMap(openThink),
  };
  cached = { maxTokens, openThink, share, settings };
  return settings;
}
