import { appendFileSync } from 'node:fs';

const traceFile = process.env.MODULE_TRACE_FILE;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (traceFile && resolved.url.includes('/node_modules/')) appendFileSync(traceFile, `${resolved.url}\n`);
  return resolved;
}
