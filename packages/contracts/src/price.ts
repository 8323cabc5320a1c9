import { z } from 'zod';

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
}

export interface SyncPricesResult {
  added: number;
  updated: number;
  deleted: number;
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
