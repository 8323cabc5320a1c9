import { runResetRootPassword } from './reset-root-password.js';

// Built to dist/reset-root-password.js; scripts/reset-root-password.mjs runs it (see reset-root-password.ts).
process.exitCode = await runResetRootPassword(process.argv.slice(2), process.env, process);
