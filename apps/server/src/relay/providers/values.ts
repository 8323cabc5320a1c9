import type { Json } from './types.js';

/** Shared readers of untrusted JSON for every adapter. */
export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A finite number, else 0: counts in upstream answers are often missing or null. */
export const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
