/**
 * new-api's model metadata (vendors, models), its extra token ratios, and what of it stays behind.
 */
import { type LegacyModelOwner, rowsIfPresent, type Skipped, type SourceDb, type SourceRow } from '../legacy.js';
import { leftovers } from './family-options.js';
import { toInteger, toNumberMap, toText, toUnixSeconds } from './values.js';

/** One Hub's built-in owners (reference §3.1 model_owned_by) by the names new-api vendors use. */
const BUILT_IN_OWNERS: Record<string, number> = {
  openai: 1,
  anthropic: 14,
  claude: 14,
  google: 25,
  gemini: 25,
  'google gemini': 25,
  'google palm': 11,
  baidu: 15,
  百度: 15,
  zhipu: 16,
  'zhipu ai': 16,
  智谱: 16,
  qwen: 17,
  alibaba: 17,
  阿里巴巴: 17,
  阿里: 17,
  spark: 18,
  xunfei: 18,
  iflytek: 18,
  讯飞: 18,
  360: 19,
  openrouter: 20,
  tencent: 40,
  腾讯: 40,
  hunyuan: 40,
  baichuan: 26,
  百川: 26,
  minimax: 27,
  deepseek: 28,
  moonshot: 29,
  月之暗面: 29,
  kimi: 29,
  mistral: 30,
  groq: 31,
  yi: 33,
  '01.ai': 33,
  零一万物: 33,
  midjourney: 34,
  cloudflare: 35,
  'cloudflare ai': 35,
  cohere: 36,
  'stability ai': 37,
  stability: 37,
  coze: 38,
  ollama: 39,
  suno: 41,
  meta: 43,
  ideogram: 44,
  siliconflow: 45,
  flux: 46,
  'black forest labs': 46,
  jina: 47,
  recraft: 51,
  recraftai: 51,
  kling: 53,
  快手: 53,
  xai: 56,
};

/** One Hub keeps ids up to 1000 for built-in owners; a custom vendor becomes 1000 + its new-api id. */
const CUSTOM_OWNER_BASE = 1000;

function ownerId(vendor: SourceRow): number {
  const builtIn = BUILT_IN_OWNERS[toText(vendor.name).trim().toLowerCase()];
  return builtIn ?? CUSTOM_OWNER_BASE + toInteger(vendor.id);
}

const alive = (row: SourceRow) => toUnixSeconds(row.deleted_at) === null;

async function vendors(source: SourceDb): Promise<SourceRow[]> {
  return (await rowsIfPresent(source, 'vendors')).filter(alive);
}

/** Vendors One Hub does not already know, as custom owners. */
export async function modelOwners(source: SourceDb): Promise<LegacyModelOwner[]> {
  return (await vendors(source))
    .filter((vendor) => ownerId(vendor) > CUSTOM_OWNER_BASE)
    .map((vendor) => ({ id: ownerId(vendor), name: toText(vendor.name), icon: toText(vendor.icon) }));
}

/** Model name → One Hub owner id, from each model's vendor. */
export async function ownersByModel(source: SourceDb): Promise<Map<string, number>> {
  const owners = new Map<string, number>();
  if (!(await source.schema()).has('models')) return owners;
  const byVendor = new Map((await vendors(source)).map((vendor) => [toInteger(vendor.id), ownerId(vendor)]));
  for (const model of (await source.allRows('models')).filter(alive)) {
    const owner = byVendor.get(toInteger(model.vendor_id));
    if (owner !== undefined) owners.set(toText(model.model_name), owner);
  }
  return owners;
}

/**
 * new-api's per-model extra ratios as One Hub `extra_ratios` (reference §4.2: a kind's tokens are
 * billed at its ratio × the input price, or × the output price for completion-side kinds).
 * - CacheRatio: cached prompt tokens at ratio × input → `cached_tokens` and Claude's `cached_read_tokens`.
 * - CreateCacheRatio: cache writes → `cached_write_tokens`.
 * - AudioRatio: audio input at ratio × input → `input_audio_tokens`; ImageRatio likewise `input_image_tokens`.
 * - AudioCompletionRatio: audio output at AudioCompletionRatio × the audio input price; One Hub counts
 *   it against the text output price (input × completion ratio), hence the division.
 */
export function extraRatiosFrom(options: Map<string, string>) {
  const cache = toNumberMap(options.get('CacheRatio'));
  const cacheWrite = toNumberMap(options.get('CreateCacheRatio'));
  const audio = toNumberMap(options.get('AudioRatio'));
  const audioCompletion = toNumberMap(options.get('AudioCompletionRatio'));
  const image = toNumberMap(options.get('ImageRatio'));
  return (model: string, completionRatio: number): Record<string, number> => {
    const ratios: Record<string, number> = {};
    const cached = cache[model];
    if (cached !== undefined) Object.assign(ratios, { cached_tokens: cached, cached_read_tokens: cached });
    if (cacheWrite[model] !== undefined) ratios.cached_write_tokens = cacheWrite[model];
    const audioIn = audio[model];
    if (audioIn !== undefined) ratios.input_audio_tokens = audioIn;
    const audioOut = audioCompletion[model];
    if (audioIn !== undefined && audioOut !== undefined && completionRatio > 0) {
      ratios.output_audio_tokens = (audioIn * audioOut) / completionRatio;
    }
    if (image[model] !== undefined) ratios.input_image_tokens = image[model];
    return ratios;
  };
}

const RULES = {
  carried: new Set([
    'users',
    'tokens',
    'channels',
    'options',
    'redemptions',
    'logs',
    'models',
    'vendors',
    'midjourneys',
    'tasks',
  ]),
  reasons: {
    abilities: 'derived data: One Hub rebuilds its routing index from each channel’s models, groups and priority',
    top_ups: 'top-up history has no importable shape yet; the balances it produced are in users.quota',
    quota_data:
      'hourly per user and model, without channel or prompt/completion split, so it cannot become daily statistics; the consume logs carried over hold the same usage',
    setups: 'new-api’s installation marker',
    two_fas: 'two-factor secrets are not carried: users sign in with their passwords and set it up again',
    two_fa_backup_codes: 'two-factor backup codes are not carried',
    passkey_credentials: 'passkeys are not carried: users sign in with their passwords',
    prefill_groups: 'console presets with no counterpart',
    checkins: 'daily check-in rewards have no counterpart',
    custom_oauth_providers: 'custom OAuth providers have no counterpart',
    user_oauth_bindings: 'custom OAuth bindings have no counterpart',
    subscription_plans: 'subscriptions have no counterpart',
    subscription_orders: 'subscriptions have no counterpart',
    user_subscriptions: 'subscriptions have no counterpart',
  } as Record<string, string>,
  columns: {
    users: {
      discord_id: 'Discord sign-in has no counterpart',
      linux_do_id: 'LinuxDO sign-in has no counterpart',
      setting: 'notification and sidebar preferences have no counterpart',
      remark: 'admin remarks have no counterpart',
      stripe_customer: 'Stripe customer ids have no counterpart',
    },
    tokens: {
      cross_group_retry: 'the auto group has no counterpart (auto keys use their owner’s group)',
      billing_type: 'subscriptions have no counterpart',
    },
    channels: {
      status_code_mapping: 'status code mappings are not carried (reported per channel)',
      auto_ban: 'automatic disabling is one setting for all channels here (reported per channel)',
      other_info: 'runtime status, no counterpart',
      settings: 'per-type extra settings (Azure responses version, Vertex key type…) have no counterpart',
    },
    redemptions: {
      expired_time: 'codes expired unused arrive disabled; a future expiry is not kept',
      deleted_at: 'deleted codes are not carried',
    },
    logs: { token_id: 'logs name the key, not its id' },
    midjourneys: {
      video_url: 'Midjourney video results have no counterpart',
      video_urls: 'Midjourney video results have no counterpart',
    },
  },
};

export const NEW_API_LEFTOVERS = (schema: Map<string, Set<string>>): Skipped[] => leftovers(schema, RULES);
