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

  it('counts channels, models, keys, prices and days in the singular for one', async () => {
    const t = await translatorFor('en_US');
    expect(t('channel:modelCount', { count: 1, first: 'gpt-4o' })).toBe('1 model · gpt-4o');
    expect(t('channel:modelCount', { count: 3, first: 'gpt-4o' })).toBe('3 models · gpt-4o');
    expect(t('channel:tag.count', { count: 1 })).toBe('Tag · 1 channel');
    expect(t('channel:tag.count', { count: 2 })).toBe('Tag · 2 channels');
    expect(t('channel:notify.deletedMany', { count: 1 })).toBe('1 channel deleted');
    expect(t('channel:notify.tag.disable', { count: 1, tag: 'east' })).toBe('Disabled 1 channel of “east”');
    expect(t('channel:batch.del_model.done', { count: 5 })).toBe('Model removed from 5 channels');
    expect(t('channel:testAll.started', { count: 1 })).toBe('Testing 1 channel in the background');
    expect(t('channel:form.fetchedModels', { count: 1 })).toBe('1 model added from the provider');
    expect(t('channel:form.keyTagHint', { count: 2 })).toBe('2 keys, one channel each.');
    expect(t('pricing:count', { shown: 1, count: 1 })).toBe('1 of 1 price');
    expect(t('pricing:count', { shown: 2, count: 9 })).toBe('2 of 9 prices');
    expect(t('pricing:multiple.editTitle', { count: 2 })).toBe('One price for 2 models');
    expect(t('setting:logCleanup.olderThan', { count: 1 })).toBe('Older than 1 day');
  });

  it('leaves no "{{n}}" count behind: i18next only picks plural forms by "count"', () => {
    for (const [language, namespaces] of Object.entries(catalogues)) {
      const counted = [...flatten(namespaces).entries()].filter(
        ([, value]) => typeof value === 'string' && value.includes('{{n}}'),
      );
      expect(
        counted.map(([key]) => key),
        language,
      ).toEqual([]);
    }
  });

  it('has the "other" form beside every "one" form in every language', () => {
    for (const [language, namespaces] of Object.entries(catalogues)) {
      const keys = new Set([...flatten(namespaces).keys()]);
      const lonely = [...keys].filter((key) => key.endsWith('_one') && !keys.has(key.replace(/_one$/, '_other')));
      expect(lonely, language).toEqual([]);
    }
  });
});
