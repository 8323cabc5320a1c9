import { z } from 'zod';
import { MAX_INTEGER_COLUMN } from './paging.js';

/** `tokens`: billed per token; `times`: a flat amount per call (1000 × input ratio). */
export const PRICE_TYPES = ['tokens', 'times'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

/** Token kinds that may be billed at their own ratio relative to the input or output price. */
export const EXTRA_TOKEN_KINDS = [
  'cached_tokens',
  'cached_write_tokens',
  'cached_read_tokens',
  'input_audio_tokens',
  'output_audio_tokens',
  'reasoning_tokens',
  'input_text_tokens',
  'output_text_tokens',
  'input_image_tokens',
  'output_image_tokens',
] as const;
export type ExtraTokenKind = (typeof EXTRA_TOKEN_KINDS)[number];

export function isExtraTokenKind(name: string): name is ExtraTokenKind {
  return (EXTRA_TOKEN_KINDS as readonly string[]).includes(name);
}

export const PRICE_MODEL_MAX_LENGTH = 100;
/** Ratios beyond this are typing mistakes: 1 000 000 would be $2 000 per 1K tokens. */
const MAX_RATIO = 1_000_000;

/** A price's model name; `prefix*` prices every model starting with the prefix. */
export const priceModelField = z
  .string('model is required')
  .trim()
  .min(1, 'model is required')
  .max(PRICE_MODEL_MAX_LENGTH, `model must be at most ${PRICE_MODEL_MAX_LENGTH} characters`)
  .regex(/^[^*]+\*?$/, 'model may contain "*" only as its last character, after at least one other character');

function ratioField(name: string) {
  return z
    .number(`${name} must be a number`)
    .min(0, `${name} must be at least 0`)
    .max(MAX_RATIO, `${name} must be at most ${MAX_RATIO}`);
}

const extraRatiosField = z
  .record(z.string(), ratioField('each extra ratio'), 'extra_ratios must be an object of token kind → ratio')
  .nullish()
  .superRefine((ratios, context) => {
    for (const kind of Object.keys(ratios ?? {})) {
      if (!isExtraTokenKind(kind)) {
        context.addIssue({
          code: 'custom',
          message: `extra_ratios: unknown token kind '${kind}'; known kinds: ${EXTRA_TOKEN_KINDS.join(', ')}`,
        });
      }
    }
  })
  .transform((ratios): Record<string, number> => ratios ?? {});

/** Everything about a price except the model it applies to. */
export const priceFieldsBody = z.object({
  type: z.enum(PRICE_TYPES, 'type must be "tokens" or "times"').default('tokens'),
  channel_type: z
    .number('channel_type is required and must be a number')
    .int('channel_type must be an integer')
    .min(0, 'channel_type must be at least 0'),
  input: ratioField('input'),
  output: ratioField('output'),
  locked: z.boolean('locked must be true or false').default(false),
  extra_ratios: extraRatiosField,
});
export type PriceFieldsBody = z.infer<typeof priceFieldsBody>;

export const priceBody = priceFieldsBody.extend({ model: priceModelField });
export type PriceBody = z.infer<typeof priceBody>;

const MAX_MODELS_PER_CALL = 5000;

function modelListField(name: string) {
  return z
    .array(priceModelField, `${name} must be an array of model names`)
    .max(MAX_MODELS_PER_CALL, `${name} may list at most ${MAX_MODELS_PER_CALL} models`);
}

/** Edits a set of models sharing one price: adds the new ones, updates the kept ones, drops the removed ones. */
export const multiplePricesBody = z.object({
  original_models: modelListField('original_models').default([]),
  models: modelListField('models').min(1, 'models must list at least one model'),
  price: priceFieldsBody,
});
export type MultiplePricesBody = z.infer<typeof multiplePricesBody>;

export const deletePricesBody = z.object({
  models: modelListField('models').min(1, 'models must list at least one model'),
});
export type DeletePricesBody = z.infer<typeof deletePricesBody>;

/** The price-update service answers with a bare array or `{data: [...]}`; both are accepted. */
export const syncPricesBody = z.preprocess(
  (body) => (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body ? body.data : body),
  z.array(priceBody, 'body must be an array of prices or {"data": [prices]}').max(MAX_MODELS_PER_CALL * 2),
);
export type SyncPricesBody = z.infer<typeof syncPricesBody>;

/** `add` (also `system`): insert missing models; `update`: replace existing ones; `overwrite`: replace the lot. */
export const SYNC_MODES = ['add', 'update', 'overwrite'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

export const syncPricesQuery = z.object({
  updateMode: z
    .enum([...SYNC_MODES, 'system'], 'updateMode must be add, update or overwrite')
    .default('add')
    .transform((mode): SyncMode => (mode === 'system' ? 'add' : mode)),
});

export const priceListQuery = z.object({
  type: z.enum(['db', 'default'], 'type must be "db" or "default"').default('db'),
});

export interface PriceView {
  model: string;
  type: PriceType;
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios: Record<string, number>;
  /** In listings only, when the model has model information: what the reference embeds there. */
  model_info?: PriceModelInfoView;
}

/**
 * Model information as the reference embeds it in prices: the list fields decoded into arrays
 * (unlike `ModelInfoView`, the raw row with JSON-array text), and no id.
 */
export interface PriceModelInfoView {
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  input_modalities: string[];
  output_modalities: string[];
  tags: string[];
  support_url: string[];
  created_at: number;
  updated_at: number;
}

export interface SyncPricesResult {
  added: number;
  updated: number;
  deleted: number;
}

/**
 * `GET /api/prices/unpriced`: a model that enabled channels bill (after their model mapping) but
 * that no price matches, exactly or by wildcard, with the channels that serve it, by id.
 */
export interface UnpricedModelView {
  model: string;
  channels: Array<{ id: number; name: string }>;
}

/** One model owner (provider) as `GET /api/ownedby` lists it, keyed by channel type id. */
export interface OwnedByView {
  id: number;
  name: string;
  icon: string;
}

/** Removes binary noise such as 0.0025000000000000005 from displayed prices. */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

/** A ratio of 1 costs $0.002 per 1K tokens, i.e. $2 per 1M tokens. */
export function priceToUsd(ratio: number): { perThousand: number; perMillion: number } {
  return { perThousand: tidy(ratio * 0.002), perMillion: tidy(ratio * 2) };
}

/** Inverse of `priceToUsd`: the ratio for a price in USD per 1M tokens. */
export function usdPerMillionToRatio(usdPerMillion: number): number {
  return tidy(usdPerMillion / 2);
}

// ---- model metadata: owners (makers) and model information ----

/** Owner ids up to this belong to the built-in owners (one per channel type); administrators add larger ones. */
export const RESERVED_OWNER_ID_MAX = 1000;
export const OWNER_NAME_MAX_LENGTH = 100;
const URL_MAX_LENGTH = 1000;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const OWNER_ID_RESERVED = `id must be above ${RESERVED_OWNER_ID_MAX}: smaller ids are reserved for the built-in owners (invalid id)`;

const ownerIdField = z
  .number('id must be a number')
  .int('id must be an integer')
  .gt(RESERVED_OWNER_ID_MAX, OWNER_ID_RESERVED)
  .max(MAX_INTEGER_COLUMN, `id must be at most ${MAX_INTEGER_COLUMN}`);

const ownedByFields = {
  name: z
    .string('name is required')
    .trim()
    .min(1, 'name is required')
    .max(OWNER_NAME_MAX_LENGTH, `name must be at most ${OWNER_NAME_MAX_LENGTH} characters`),
  icon: z
    .string('icon must be text')
    .trim()
    .max(URL_MAX_LENGTH, `icon must be at most ${URL_MAX_LENGTH} characters`)
    .refine((icon) => icon === '' || isHttpUrl(icon), 'icon must be an http(s) URL or empty')
    .default(''),
};

/** `POST /api/model_ownedby/`: no id (or 0) takes the next free one above the reserved range. */
export const createOwnedByBody = z.object({
  id: z
    .number('id must be a number')
    .int('id must be an integer')
    .max(MAX_INTEGER_COLUMN, `id must be at most ${MAX_INTEGER_COLUMN}`)
    .refine((id) => id === 0 || id > RESERVED_OWNER_ID_MAX, OWNER_ID_RESERVED)
    .optional(),
  ...ownedByFields,
});
export type CreateOwnedByBody = z.infer<typeof createOwnedByBody>;

export const updateOwnedByBody = z.object({ id: ownerIdField, ...ownedByFields });
export type UpdateOwnedByBody = z.infer<typeof updateOwnedByBody>;

export const MODEL_INFO_NAME_MAX_LENGTH = 100;
export const MODEL_INFO_DESCRIPTION_MAX_LENGTH = 5000;
const LIST_MAX_ITEMS = 20;
const LIST_ITEM_MAX_LENGTH = 50;
/** Modalities the console offers; others are accepted as typed. */
export const MODEL_MODALITIES = ['text', 'image', 'audio', 'video', 'file'] as const;

/** The reference stores lists as JSON-array text; a body may send either that text or the array. */
function fromJsonList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return [];
  if (!text.startsWith('[')) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

function textListField(name: string) {
  return z.preprocess(
    fromJsonList,
    z
      .array(
        z
          .string(`${name} must list text`)
          .trim()
          .min(1, `${name} may not list an empty entry`)
          .max(LIST_ITEM_MAX_LENGTH, `each of ${name} must be at most ${LIST_ITEM_MAX_LENGTH} characters`),
        `${name} must be a list of text`,
      )
      .max(LIST_MAX_ITEMS, `${name} may list at most ${LIST_MAX_ITEMS} entries`)
      .transform((items) => [...new Set(items)])
      .default([]),
  );
}

/** One URL (the reference's plain-text form) or a list of them. */
const supportUrlField = z.preprocess(
  (value) => {
    const parsed = fromJsonList(value);
    return typeof parsed === 'string' ? [parsed] : parsed;
  },
  z
    .array(
      z
        .string('support_url must list URLs')
        .trim()
        .max(URL_MAX_LENGTH, `each support_url must be at most ${URL_MAX_LENGTH} characters`)
        .refine(isHttpUrl, 'support_url must list http(s) URLs'),
      'support_url must be a URL or a list of URLs',
    )
    .max(LIST_MAX_ITEMS, `support_url may list at most ${LIST_MAX_ITEMS} URLs`)
    .default([]),
);

function countField(name: string) {
  return z
    .number(`${name} must be a number`)
    .int(`${name} must be an integer`)
    .min(0, `${name} must be at least 0`)
    .max(MAX_INTEGER_COLUMN, `${name} must be at most ${MAX_INTEGER_COLUMN}`)
    .default(0);
}

export const modelInfoBody = z.object({
  model: z
    .string('model is required')
    .trim()
    .min(1, 'model is required')
    .max(PRICE_MODEL_MAX_LENGTH, `model must be at most ${PRICE_MODEL_MAX_LENGTH} characters`),
  name: z
    .string('name is required')
    .trim()
    .min(1, 'name is required')
    .max(MODEL_INFO_NAME_MAX_LENGTH, `name must be at most ${MODEL_INFO_NAME_MAX_LENGTH} characters`),
  description: z
    .string('description must be text')
    .trim()
    .max(
      MODEL_INFO_DESCRIPTION_MAX_LENGTH,
      `description must be at most ${MODEL_INFO_DESCRIPTION_MAX_LENGTH} characters`,
    )
    .default(''),
  context_length: countField('context_length'),
  max_tokens: countField('max_tokens'),
  input_modalities: textListField('input_modalities'),
  output_modalities: textListField('output_modalities'),
  tags: textListField('tags'),
  support_url: supportUrlField,
});
export type ModelInfoBody = z.infer<typeof modelInfoBody>;

export const updateModelInfoBody = modelInfoBody.extend({
  id: z.number('id is required and must be a number').int('id must be an integer').min(1, 'id must be at least 1'),
});
export type UpdateModelInfoBody = z.infer<typeof updateModelInfoBody>;

/**
 * A model-info row as `/api/model_info/` hands it out: the reference's raw form, where the four
 * list fields are JSON-array text (parse them with `parseModelInfoList`).
 */
export interface ModelInfoView {
  id: number;
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  input_modalities: string;
  output_modalities: string;
  tags: string;
  support_url: string;
  created_at: number;
  updated_at: number;
}

/** The list in a JSON-array text field; a non-JSON text is a one-entry list, empty text none. */
export function parseModelInfoList(text: string): string[] {
  const parsed = fromJsonList(text);
  if (typeof parsed === 'string') return [parsed];
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}
