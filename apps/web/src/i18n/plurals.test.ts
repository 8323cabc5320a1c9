import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { flatten, readCatalogues } from './checks/catalogues.js';

const catalogues = readCatalogues();

async function translatorFor(language: string) {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: catalogues[language] ?? {} }, initImmediate: false });
  return instance.t;
}

describe('counts with nouns use plural forms', () => {
  it('says "1 request" and "2 requests" in English', async () => {
    const t = await translatorFor('en_US');
    expect(t('dashboard:models.requestCount', { count: 1, value: '1' })).toBe('1 request');
    expect(t('dashboard:models.requestCount', { count: 2, value: '2' })).toBe('2 requests');
    expect(t('dashboard:models.tokenCount', { count: 1, value: '1' })).toBe('1 token');
    expect(t('log:totalCount', { count: 1 })).toBe('1 entry');
    expect(t('log:totalCount', { count: 0 })).toBe('0 entries');
    expect(t('user:requests', { count: 1, value: '1' })).toBe('1 request');
  });

  it('has the "other" form beside every "one" form in every language', () => {
    for (const [language, namespaces] of Object.entries(catalogues)) {
      const keys = new Set([...flatten(namespaces).keys()]);
      const lonely = [...keys].filter((key) => key.endsWith('_one') && !keys.has(key.replace(/_one$/, '_other')));
      expect(lonely, language).toEqual([]);
    }
  });
});
