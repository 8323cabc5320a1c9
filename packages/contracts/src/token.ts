// Filled in by the token API work: zod schemas and view types for tokens.
export {};
