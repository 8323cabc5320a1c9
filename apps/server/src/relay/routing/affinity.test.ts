import { defaultTokenSetting } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import type { Attempt, Endpoint, RelayDeps } from '../exchange/types.js';
import { AffinityPins, conversationKeyOf } from './affinity.js';

const chatEndpoint = { surface: {} } as Endpoint;
const deps = (seconds = 600, affinity = true) =>
  ({
    options: { getNumber: () => seconds },
    groups: { enabled: () => ({ cache_affinity: affinity }) },
  }) as unknown as Pick<RelayDeps, 'groups' | 'options'>;

function attemptOf(fields: Record<string, unknown>, tokenId = 1, model = 'gpt-4o'): Attempt {
  return {
    caller: {
      user: { id: 1, group: 'default' },
      token: { id: tokenId, group: '', backup_group: '' },
      setting: defaultTokenSetting(),
      unlimited: true,
      forcedChannelId: undefined,
      skippedChannelIds: [],
    },
    input: { model, stream: false, fields },
    group: 'default',
    groupRatio: 1,
    startedAt: 0,
    channelsTried: [],
  } as unknown as Attempt;
}

const keyOf = (fields: Record<string, unknown>, headers = {}, tokenId = 1, model = 'gpt-4o') =>
  conversationKeyOf(deps(), chatEndpoint, attemptOf(fields, tokenId, model), { headers });

describe('AffinityPins', () => {
  it('forgets a pin its time after the last use', () => {
    let now = 0;
    const pins = new AffinityPins(10, () => now);
    pins.set('a', 3, 1000);
    now = 999;
    expect(pins.get('a')).toBe(3);
    pins.set('a', 3, 1000);
    now = 1998;
    expect(pins.get('a')).toBe(3);
    now = 2000;
    expect(pins.get('a')).toBeUndefined();
  });

  it('holds at most its bound, evicting the least recently pinned', () => {
    const pins = new AffinityPins(3, () => 0);
    for (const key of ['a', 'b', 'c']) pins.set(key, 1, 1000);
    pins.set('a', 2, 1000);
    pins.set('d', 1, 1000);
    expect(pins.size).toBe(3);
    expect(pins.get('b')).toBeUndefined();
    expect(pins.get('a')).toBe(2);
  });

  it('renews the pin used last in place, keeping the order of last use', () => {
    let now = 0;
    const pins = new AffinityPins(3, () => now);
    pins.set('a', 1, 1000);
    pins.set('b', 1, 1000);
    pins.set('b', 2, 1000);
    now = 500;
    pins.set('b', 3, 1000);
    pins.set('c', 1, 1000);
    pins.set('d', 1, 1000);
    expect(pins.size).toBe(3);
    expect(pins.get('a')).toBeUndefined();
    now = 1499;
    expect(pins.get('b')).toBe(3);
    pins.set('c', 4, 1000);
    pins.set('c', 5, 1000);
    pins.set('e', 1, 1000);
    // b was used before c and d were pinned again: it goes first, then d.
    expect(pins.get('b')).toBeUndefined();
    expect(pins.get('c')).toBe(5);
    expect(pins.get('d')).toBe(1);
  });

  it('pins the conversation used last anew after its pin expired', () => {
    let now = 0;
    const pins = new AffinityPins(10, () => now);
    pins.set('a', 1, 10);
    now = 20;
    expect(pins.get('a')).toBeUndefined();
    pins.set('a', 2, 10);
    expect(pins.size).toBe(1);
    expect(pins.get('a')).toBe(2);
  });

  it('sweeps expired pins as new ones come', () => {
    let now = 0;
    const pins = new AffinityPins(100, () => now);
    for (const key of ['a', 'b', 'c', 'd']) pins.set(key, 1, 10);
    now = 20;
    pins.set('e', 1, 10);
    pins.set('f', 1, 10);
    expect(pins.size).toBe(2);
  });
});

describe('conversationKeyOf', () => {
  const system = { role: 'system', content: 'You are terse.' };
  const first = { role: 'user', content: 'Hello' };

  it('names a conversation by its system prompt and first message, whatever follows', () => {
    const start = keyOf({ messages: [system, first] });
    const later = keyOf({
      messages: [system, first, { role: 'assistant', content: 'Hi' }, { role: 'user', content: 'More' }],
    });
    expect(start).toBeDefined();
    expect(later).toBe(start);
    expect(keyOf({ messages: [system, { role: 'user', content: 'Other' }] })).not.toBe(start);
    expect(keyOf({ system: 'You are terse.', messages: [first] })).not.toBe(
      keyOf({ system: 'Other', messages: [first] }),
    );
  });

  it('keeps no text: the key is a fixed-length digest, distinct per API key and model', () => {
    const key = keyOf({ messages: [system, first] }) ?? '';
    expect(key).toMatch(/^[\w-]{24}$/);
    expect(key).not.toContain('terse');
    expect(keyOf({ messages: [system, first] }, {}, 2)).not.toBe(key);
    expect(keyOf({ messages: [system, first] }, {}, 1, 'gpt-4o-mini')).not.toBe(key);
  });

  it('prefers the client’s hint: the header, then prompt_cache_key, metadata.user_id, user', () => {
    const fields = { messages: [first], prompt_cache_key: 'p', user: 'u', metadata: { user_id: 'm' } };
    expect(keyOf(fields, { 'x-session-id': 's' })).toBe(keyOf({ messages: [system] }, { 'x-session-id': 's' }));
    expect(keyOf(fields)).toBe(keyOf({ prompt_cache_key: 'p' }));
    expect(keyOf({ ...fields, prompt_cache_key: undefined })).toBe(keyOf({ metadata: { user_id: 'm' } }));
    expect(keyOf({ messages: [first], user: 'u' })).toBe(keyOf({ user: 'u', messages: [system] }));
  });

  it('applies to chat surfaces only, and not when the site or the group turns it off', () => {
    const fields = { messages: [first] };
    expect(conversationKeyOf(deps(), {} as Endpoint, attemptOf(fields), { headers: {} })).toBeUndefined();
    expect(conversationKeyOf(deps(0), chatEndpoint, attemptOf(fields), { headers: {} })).toBeUndefined();
    expect(conversationKeyOf(deps(600, false), chatEndpoint, attemptOf(fields), { headers: {} })).toBeUndefined();
    expect(keyOf({ prompt: 'no message list' })).toBeUndefined();
  });
});
