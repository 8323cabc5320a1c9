// Filled in by the log API work: zod schemas and view types for logs.
export {};
