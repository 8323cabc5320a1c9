import { describe, expect, it } from 'vitest';
import { flatten, placeholders, readCatalogues } from './checks/catalogues.js';
import { defaultLanguage, languages } from './languages.js';

const catalogues = readCatalogues();
const reference = catalogues[defaultLanguage] ?? {};

describe('translation catalogues', () => {
  it('has a folder for each of the four languages and nothing else', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...languages].sort());
  });

  it('has the same namespaces in every language', () => {
    for (const language of languages) {
      expect(Object.keys(catalogues[language] ?? {}).sort(), language).toEqual(Object.keys(reference).sort());
    }
  });

  for (const namespace of Object.keys(reference)) {
    it(`${namespace}: every language has exactly the keys of every other, none empty, same placeholders`, () => {
      const referenceLeaves = flatten(reference[namespace]);
      const problems: string[] = [];
      for (const language of languages) {
        const leaves = flatten(catalogues[language]?.[namespace]);
        for (const key of referenceLeaves.keys()) {
          if (!leaves.has(key)) problems.push(`${language}/${namespace}.json lacks "${key}"`);
        }
        for (const [key, value] of leaves) {
          if (!referenceLeaves.has(key)) problems.push(`${language}/${namespace}.json has extra "${key}"`);
          if (typeof value !== 'string' || value.trim() === '') {
            problems.push(`${language}/${namespace}.json "${key}" is empty or not text`);
            continue;
          }
          const expected = referenceLeaves.get(key);
          if (typeof expected === 'string' && placeholders(expected).join() !== placeholders(value).join()) {
            problems.push(`${language}/${namespace}.json "${key}" has placeholders {${placeholders(value)}}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
