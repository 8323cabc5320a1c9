import type { PriceView } from '@one-hub/contracts';
import { FALLBACK_PRICE, type Price } from '../../domain/prices.js';

interface Wildcard {
  prefix: string;
  price: Price;
}

function frozen(view: PriceView): Price {
  return Object.freeze({ ...view, extra_ratios: Object.freeze({ ...view.extra_ratios }) });
}

/**
 * An immutable snapshot of every price, built once per load and read on every relay request, so
 * a lookup does no I/O and allocates nothing.
 */
export class PriceTable {
  private readonly exact = new Map<string, Price>();
  /** Longest prefix first, so the most specific wildcard wins whatever the insertion order. */
  private readonly wildcards: Wildcard[] = [];
  /** Sorted by channel type then model, as the price list is served. */
  readonly sorted: readonly Price[];

  constructor(views: readonly PriceView[]) {
    for (const view of views) {
      const price = frozen(view);
      this.exact.set(price.model, price);
      if (price.model.endsWith('*')) this.wildcards.push({ prefix: price.model.slice(0, -1), price });
    }
    this.wildcards.sort(
      (left, right) => right.prefix.length - left.prefix.length || compareText(left.prefix, right.prefix),
    );
    this.sorted = Object.freeze([...this.exact.values()].sort(compareForListing));
  }

  get size(): number {
    return this.exact.size;
  }

  has(model: string): boolean {
    return this.exact.has(model);
  }

  /** The exact price, else the longest matching wildcard, else the fallback. */
  lookup(model: string): Price {
    const exact = this.exact.get(model);
    if (exact) return exact;
    for (const wildcard of this.wildcards) {
      if (model.startsWith(wildcard.prefix)) return wildcard.price;
    }
    return FALLBACK_PRICE;
  }

  models(): string[] {
    return [...this.exact.keys()];
  }
}

function compareText(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

export function compareForListing(left: Pick<Price, 'channel_type' | 'model'>, right: typeof left): number {
  return left.channel_type - right.channel_type || compareText(left.model, right.model);
}
