import { appendFileSync } from 'node:fs';

// Module customization hooks (they run on a thread of their own, so the log is a file).
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@opentelemetry/') && process.env.RESOLVE_LOG) {
    appendFileSync(process.env.RESOLVE_LOG, `${specifier}\n`);
  }
  return nextResolve(specifier, context);
}
