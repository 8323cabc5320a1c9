import { describe, expect, it } from 'vitest';
import {
  normaliseOptionValue,
  type OptionKey,
  optionDefinitions,
  optionValueForReading,
  secretOptionKeys,
} from './options.js';

const check = (key: OptionKey, value: string) => normaliseOptionValue(key, value);

describe('option values', () => {
  it('accepts every default', () => {
    for (const [key, definition] of Object.entries(optionDefinitions)) {
      expect(check(key as OptionKey, definition.default), key).toEqual({ value: definition.default.trim() });
    }
  });

  it('normalises numbers and keeps bounds', () => {
    expect(check('RetryTimes', ' 3 ')).toEqual({ value: '3' });
    expect(check('RetryTimes', '-1')).toMatchObject({ issue: { code: 'min', min: 0 } });
    expect(check('QuotaPerUnit', '0')).toMatchObject({ issue: { code: 'above', min: 0 } });
    expect(check('QuotaPerUnit', '0.5')).toEqual({ value: '0.5' });
    expect(check('SMTPPort', '0')).toMatchObject({ issue: { code: 'min', min: 1 } });
    expect(check('SMTPPort', '65536')).toMatchObject({ issue: { code: 'max', max: 65535 } });
    expect(check('ClaudeBudgetTokensPercentage', '1.2')).toMatchObject({ issue: { code: 'max', max: 1 } });
    expect(check('PreConsumedQuota', '1.5')).toMatchObject({ issue: { code: 'integer' } });
    expect(check('PaymentUSDRate', 'abc')).toMatchObject({ issue: { code: 'number' } });
  });

  it('checks URL formats but lets an empty value through', () => {
    expect(check('ServerAddress', '')).toEqual({ value: '' });
    expect(check('ServerAddress', 'https://hub.example.com/')).toEqual({ value: 'https://hub.example.com/' });
    expect(check('ServerAddress', 'hub.example.com')).toMatchObject({ issue: { code: 'url' } });
    expect(check('TopUpLink', 'https://shop example.com')).toMatchObject({ issue: { code: 'url' } });
    expect(check('Logo', '/static/logo.svg')).toEqual({ value: '/static/logo.svg' });
    expect(check('Logo', 'javascript:alert(1)')).toMatchObject({ issue: { code: 'urlOrPath' } });
    expect(check('ChatImageRequestProxy', 'http://proxy:8080')).toEqual({ value: 'http://proxy:8080' });
    expect(check('ChatImageRequestProxy', 'proxy:8080')).toMatchObject({ issue: { code: 'proxyUrl' } });
    expect(check('Language', 'ja_JP')).toEqual({ value: 'ja_JP' });
    expect(check('Language', 'de_DE')).toMatchObject({ issue: { code: 'choice' } });
  });

  it('checks the shape of JSON values and points at the faulty entry', () => {
    expect(check('RechargeDiscount', '{"100": 0.9')).toMatchObject({ issue: { code: 'json' } });
    expect(check('RechargeDiscount', '{"100": 0.9, "1000": 0.8}')).toEqual({ value: '{"100": 0.9, "1000": 0.8}' });
    expect(check('RechargeDiscount', 'null')).toMatchObject({ issue: { code: 'shape', problem: 'object' } });
    expect(check('RechargeDiscount', '{"0": 0.9}')).toMatchObject({ issue: { problem: 'key', at: '0' } });
    expect(check('RechargeDiscount', '{"10": 0}')).toMatchObject({ issue: { problem: 'value', at: '10' } });
    expect(check('GroupRatio', '{"vip": "1"}')).toMatchObject({ issue: { shape: 'ratioMap', problem: 'value' } });
    expect(check('GeminiOpenThink', '{"gemini": true}')).toEqual({ value: '{"gemini": true}' });
    const links = JSON.stringify([
      { name: 'A', url: 'https://a.example/{key}', show: true, sort: 1 },
      { name: 'B', url: '', show: true, sort: 2 },
    ]);
    expect(check('ChatLinks', links)).toMatchObject({
      error: 'ChatLinks link 2 needs a url',
      issue: { shape: 'chatLinks', problem: 'url', index: 1, at: '2' },
    });
    expect(check('ChatLinks', '[{"id":"a","name":"A","url":"x","sort":"x1"}]')).toMatchObject({
      issue: { problem: 'sort' },
    });
    expect(check('ChatLinks', '[{"name":"A","url":"x","id":{}}]')).toMatchObject({ issue: { problem: 'id' } });
  });

  it('gives chat link rows without an id (or with a repeated one) ids of their own', () => {
    // As the reference's console may leave a row: sort as digits in a string, or empty.
    const kept = '[{"id":"x1","name":"A","url":"u","sort":"3"},{"id":7,"name":"B","url":"u","sort":""}]';
    expect(check('ChatLinks', kept)).toEqual({ value: kept });
    const filled = check(
      'ChatLinks',
      '[{"name":"A","url":"u"},{"id":"link-1","name":"B","url":"u"},{"id":"link-1","name":"C","url":"u"}]',
    );
    expect(JSON.parse((filled as { value: string }).value)).toEqual([
      { id: 'link-2', name: 'A', url: 'u' },
      { id: 'link-1', name: 'B', url: 'u' },
      { id: 'link-3', name: 'C', url: 'u' },
    ]);
    const defaults = JSON.parse(optionDefinitions.ChatLinks.default) as Array<{ id: string }>;
    expect(new Set(defaults.map((link) => link.id)).size).toBe(defaults.length);
    expect(optionValueForReading('ChatLinks', '')).toBe(optionDefinitions.ChatLinks.default);
    expect(optionValueForReading('ChatLinks', 'not json')).toBe('not json');
  });

  it('lists the write-only options', () => {
    expect([...secretOptionKeys].sort()).toEqual([
      'CFWorkerImageKey',
      'GitHubClientSecret',
      'LarkClientSecret',
      'OIDCClientSecret',
      'SMTPToken',
      'TurnstileSecretKey',
      'WeChatServerToken',
    ]);
  });
});
