import { refusesUnpricedModels } from '@one-hub/contracts';
import { isFallbackPrice } from '../../domain/prices.js';
import { AppError } from '../../platform/errors.js';
import type { Price } from './quota.js';

type PolicySource = { get(key: 'UnpricedModelPolicy'): string };

/**
 * The refusal of a model no price matches when `UnpricedModelPolicy` is `refuse`, else undefined
 * (the model is billed at the fallback price, or has a price of its own).
 */
export function unpricedModelRefusal(options: PolicySource, price: Price, model: string): AppError | undefined {
  if (!isFallbackPrice(price) || !refusesUnpricedModels(options.get('UnpricedModelPolicy'))) return undefined;
  return new AppError('bad_request', `model '${model}' has no price on this server; an administrator must set one`, {
    details: { code: 'model_not_priced', param: 'model' },
  });
}

/** Thrown before anything is reserved or sent upstream, instead of billing a price nobody chose. */
export function refuseUnpricedModel(options: PolicySource, price: Price, model: string): void {
  const refusal = unpricedModelRefusal(options, price, model);
  if (refusal) throw refusal;
}
