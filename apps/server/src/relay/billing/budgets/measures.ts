/** What a budget window counts: quota (money), requests and tokens. */
export interface Measures {
  quota: number;
  requests: number;
  tokens: number;
}

export const MEASURES = ['quota', 'requests', 'tokens'] as const;
export type Measure = (typeof MEASURES)[number];

export const noMeasures = (): Measures => ({ quota: 0, requests: 0, tokens: 0 });

export function addMeasures(into: Measures, from: Measures, sign = 1): void {
  into.quota += sign * from.quota;
  into.requests += sign * from.requests;
  into.tokens += sign * from.tokens;
}

export const isZero = (measures: Measures): boolean =>
  measures.quota === 0 && measures.requests === 0 && measures.tokens === 0;
