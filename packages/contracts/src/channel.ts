// Filled in by the channel API work: zod schemas and view types for channels.
export {};
