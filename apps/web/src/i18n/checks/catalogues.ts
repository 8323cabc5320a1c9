import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRecord } from '@one-hub/contracts';

/** Reads locales/<language>/<namespace>.json from disk (for tests; the app bundles them with Vite). */
export const localesDirectory = fileURLToPath(new URL('../locales/', import.meta.url));

export type Catalogues = Record<string, Record<string, unknown>>;

/** language → namespace → parsed JSON. */
export function readCatalogues(directory = localesDirectory): Record<string, Catalogues> {
  const result: Record<string, Catalogues> = {};
  for (const language of readdirSync(directory)) {
    const catalogues: Catalogues = {};
    for (const file of readdirSync(join(directory, language))) {
      if (!file.endsWith('.json')) continue;
      catalogues[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(directory, language, file), 'utf8'));
    }
    result[language] = catalogues;
  }
  return result;
}

/** Every leaf of a nested catalogue as `a.b.c` → value. */
export function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (isRecord(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of flatten(child, prefix ? `${prefix}.${key}` : key)) leaves.set(path, leaf);
    }
  } else {
    leaves.set(prefix, value);
  }
  return leaves;
}

/** The `{{name}}` placeholders of a translation, sorted. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1] ?? '').sort();
}

/** Looks up `a.b.c` in a nested catalogue. */
export function lookup(catalogue: unknown, path: string): unknown {
  let node: unknown = catalogue;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
