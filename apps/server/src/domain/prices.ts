import { FALLBACK_MODEL_PRICE, type PriceType } from '@one-hub/contracts';

/** A model's price as the relay sees it; shared and frozen by the price table, never to be mutated. */
export interface Price {
  readonly model: string;
  readonly type: PriceType;
  readonly channel_type: number;
  readonly input: number;
  readonly output: number;
  readonly locked: boolean;
  readonly extra_ratios: Readonly<Record<string, number>>;
}

/**
 * What a model without any price costs: 30 per token each way ($60 per 1M), as in the reference
 * system. Lookups hand out this very object, so `isFallbackPrice` tells an unpriced model apart.
 */
export const FALLBACK_PRICE: Price = Object.freeze({
  model: '',
  type: FALLBACK_MODEL_PRICE.type,
  channel_type: 0,
  input: FALLBACK_MODEL_PRICE.input,
  output: FALLBACK_MODEL_PRICE.output,
  locked: false,
  extra_ratios: Object.freeze({}),
});

/** Whether a looked-up price is the fallback, i.e. no stored price matches the model. */
export function isFallbackPrice(price: Price): boolean {
  return price === FALLBACK_PRICE;
}
