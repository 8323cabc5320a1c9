// Loaded with `node --import`: records every package module the process resolves through the ESM
// loader to the file named by MODULE_TRACE_FILE, one URL a line (startup-modules.test.ts).
import { register } from 'node:module';

register('./module-trace-hooks.mjs', import.meta.url);
