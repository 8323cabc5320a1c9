import { describe, expect, it } from 'vitest';
import { groupDisplayName } from './groupName.js';

describe('group display names', () => {
  it('shows the seeded default group in the reader language', () => {
    expect(groupDisplayName({ symbol: 'default', name: '默认分组' }, 'default', 'Default group')).toBe('Default group');
  });

  it("keeps an administrator's own name, also for the default group", () => {
    expect(groupDisplayName({ symbol: 'default', name: 'Everyone' }, 'default', 'Default group')).toBe('Everyone');
    expect(groupDisplayName({ symbol: 'vip', name: '默认分组' }, 'vip', 'Default group')).toBe('默认分组');
    expect(groupDisplayName({ symbol: 'vip', name: 'VIP' }, 'vip', 'Default group')).toBe('VIP');
  });

  it('falls back to the symbol for a nameless or unknown group', () => {
    expect(groupDisplayName({ symbol: 'vip', name: '' }, 'vip', 'Default group')).toBe('vip');
    expect(groupDisplayName(undefined, 'gone', 'Default group')).toBe('gone');
  });
});
