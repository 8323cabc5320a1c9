import { config } from 'zod';

// zod compiles fast parsers with `new Function` when it may; the console's Content-Security-Policy
// forbids eval, and even zod's guarded probe for it is reported as a policy violation. Imported
// first by main.tsx, before any schema parses.
config({ jitless: true });
