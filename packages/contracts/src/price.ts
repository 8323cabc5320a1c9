// Filled in by the price API work: zod schemas and view types for prices.
export {};
