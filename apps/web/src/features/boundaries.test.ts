import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A feature never imports another feature's files (DESIGN.md): what two screens share lives in
 * components/, hooks/ or lib/, so a screen can be reshaped without breaking its neighbours.
 */
const features = fileURLToPath(new URL('.', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('console features', () => {
  it("import no other feature's files", () => {
    const crossings: string[] = [];
    for (const file of sourceFiles(features)) {
      const own = relative(features, file).split(sep)[0];
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(features, resolve(file, '..', specifier as string));
        const feature = target.split(sep)[0];
        if (!target.startsWith('..') && feature !== own) crossings.push(`${relative(features, file)} → ${target}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
