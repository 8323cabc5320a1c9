import { type OptionKey, optionDefinitions } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import english from '../../i18n/locales/en_US/setting.json' with { type: 'json' };
import { type OptionsSnapshot, toSnapshot } from '../../lib/optionsSnapshot.js';
import { parseChatLinkRows, splitDomains } from './fieldValues.js';
import { fieldKind, parseTab, SECTIONS, sectionKeys, UNLISTED_OPTIONS } from './sections.js';
import { applyEdit, changedKeys, checkEdits, isChanged, saveOrder, shownValue } from './settingsForm.js';

const snapshot: OptionsSnapshot = toSnapshot(
  [
    { key: 'SystemName', value: 'One Hub' },
    { key: 'RetryTimes', value: '2' },
    { key: 'NotAnOption', value: 'x' },
  ],
  [
    { key: 'SMTPToken', set: true },
    { key: 'GitHubClientSecret', set: false },
  ],
);

describe('settings form state', () => {
  it('shows stored values, defaults for unlisted options, and never a secret', () => {
    expect(shownValue(snapshot, {}, 'SystemName')).toBe('One Hub');
    expect(shownValue(snapshot, {}, 'QuotaPerUnit')).toBe(optionDefinitions.QuotaPerUnit.default);
    expect(shownValue(snapshot, {}, 'SMTPToken')).toBe('');
    expect(snapshot.values).not.toHaveProperty('NotAnOption');
    expect(snapshot.secretsSet).toEqual({ SMTPToken: true, GitHubClientSecret: false });
  });

  it('counts an edit as a change only while it differs from the stored value', () => {
    let changes = applyEdit({}, 'SystemName', 'Acme');
    expect(isChanged(snapshot, changes, 'SystemName')).toBe(true);
    changes = applyEdit(changes, 'SystemName', 'One Hub');
    expect(isChanged(snapshot, changes, 'SystemName')).toBe(false);
    changes = applyEdit(changes, 'RetryTimes', '3');
    expect(changedKeys(snapshot, changes, ['SystemName', 'RetryTimes', 'Logo'])).toEqual(['RetryTimes']);
  });

  it('keeps a stored secret when its field is emptied, and clears it only when asked', () => {
    let changes = applyEdit({}, 'SMTPToken', 'new-password');
    expect(isChanged(snapshot, changes, 'SMTPToken')).toBe(true);
    changes = applyEdit(changes, 'SMTPToken', '');
    expect(changes).not.toHaveProperty('SMTPToken');
    expect(isChanged(snapshot, { SMTPToken: '' }, 'SMTPToken')).toBe(true);
    // Clearing a secret that is not set changes nothing.
    expect(isChanged(snapshot, { GitHubClientSecret: '' }, 'GitHubClientSecret')).toBe(false);
  });

  it('checks edits with the contract rules and reports the issue per key', () => {
    const errors = checkEdits({ RechargeDiscount: '{"100": 0.9', RetryTimes: '-1', SystemName: 'x' }, [
      'RechargeDiscount',
      'RetryTimes',
      'SystemName',
    ]);
    expect(errors.RechargeDiscount).toEqual({ issue: { code: 'json' } });
    expect(errors.RetryTimes).toEqual({ issue: { code: 'min', min: 0 } });
    expect(errors.SystemName).toBeUndefined();
  });

  it('sends switches after the values they depend on', () => {
    expect(
      saveOrder(['GitHubOAuthEnabled', 'GitHubClientId', 'GitHubOldIdCloseEnabled', 'GitHubClientSecret']),
    ).toEqual(['GitHubClientId', 'GitHubClientSecret', 'GitHubOAuthEnabled', 'GitHubOldIdCloseEnabled']);
  });
});

describe('settings sections', () => {
  const placed = SECTIONS.flatMap(sectionKeys);

  it('offers every option except the unlisted ones, each exactly once', () => {
    const editable = (Object.keys(optionDefinitions) as OptionKey[]).filter((key) => !UNLISTED_OPTIONS.includes(key));
    expect([...placed].sort()).toEqual([...editable].sort());
    expect(new Set(placed).size).toBe(placed.length);
  });

  it('does not offer GroupRatio: billing reads the ratios of the user groups, never that option', () => {
    expect(placed).not.toContain('GroupRatio');
  });

  it('has a label, a help text and a title for every field and section', () => {
    const fields = english.fields as Record<string, { label?: string; help?: string }>;
    const sections = english.sections as Record<string, { title?: string }>;
    for (const key of placed) {
      expect(fields[key]?.label, key).toBeTruthy();
      expect(fields[key]?.help, key).toBeTruthy();
    }
    for (const section of SECTIONS) expect(sections[section.id]?.title, section.id).toBeTruthy();
  });

  it('edits secrets as write-only fields and picks editors from the option type', () => {
    expect(fieldKind({ key: 'SMTPToken' })).toBe('secret');
    expect(fieldKind({ key: 'TurnstileSecretKey' })).toBe('secret');
    expect(fieldKind({ key: 'CFWorkerImageKey' })).toBe('secret');
    expect(fieldKind({ key: 'RetryTimes' })).toBe('number');
    expect(fieldKind({ key: 'RegisterEnabled' })).toBe('switch');
    expect(fieldKind({ key: 'RechargeDiscount' })).toBe('json');
    expect(fieldKind({ key: 'Language' })).toBe('select');
    expect(fieldKind({ key: 'Notice', kind: 'markdown' })).toBe('markdown');
  });

  it('reads the tab from the URL, falling back to the first', () => {
    expect(parseTab('system')).toBe('system');
    expect(parseTab('other')).toBe('other');
    expect(parseTab(null)).toBe('operation');
    expect(parseTab('nonsense')).toBe('operation');
  });
});

describe('field helpers', () => {
  it('splits a domain list at commas and spaces, once each, in lower case', () => {
    expect(splitDomains('gmail.com, Example.org，qq.com  gmail.com,')).toEqual(['gmail.com', 'example.org', 'qq.com']);
    expect(splitDomains('')).toEqual([]);
  });

  it('reads chat link rows, or refuses text that is not a list of objects', () => {
    expect(parseChatLinkRows('[{"name":"A","url":"https://a/{key}","show":false,"sort":2,"extra":1}]')).toEqual([
      { name: 'A', url: 'https://a/{key}', show: false, sort: 2, extra: 1 },
    ]);
    expect(parseChatLinkRows('')).toEqual([]);
    expect(parseChatLinkRows('{"name":"A"}')).toBeNull();
    expect(parseChatLinkRows('[1, 2]')).toBeNull();
    expect(parseChatLinkRows('[{')).toBeNull();
  });
});
