// Registered with --import before a child process runs: every package specifier under
// @opentelemetry/ that is resolved for an import is appended to the file RESOLVE_LOG names.
import { register } from 'node:module';

register('./resolve-hooks.mjs', import.meta.url);
