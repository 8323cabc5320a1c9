import { NEVER_EXPIRES } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { emptyTokenForm, fromLocalInput, toLocalInput, validateTokenForm } from './tokenForm.js';
import { parseTokenListParams, tokenListSearch } from './useTokenListParams.js';

const now = 1_800_000_000;
/** Echoes the key and values, so the tests see which message was chosen. */
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

describe('token form validation (the server schema, messages on fields)', () => {
  it('refuses an empty name and one over 30 characters', () => {
    const empty = validateTokenForm(emptyTokenForm(now), null, now, t);
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.errors.name).toBe('token:form.errors.nameRequired');

    const long = validateTokenForm({ ...emptyTokenForm(now), name: 'x'.repeat(31) }, null, now, t);
    if (long.ok) throw new Error('a 31-character name was accepted');
    expect(long.errors.name).toBe('token:form.errors.nameTooLong {"max":30}');
  });

  it('builds the create body, with -1 for never', () => {
    const result = validateTokenForm({ ...emptyTokenForm(now), name: ' app ', remainQuota: '1000' }, null, now, t);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.body).toMatchObject({ name: 'app', remain_quota: 1000, expired_time: NEVER_EXPIRES });
  });

  it('places nested issues: a bad IP line, a past expiry on create, the same backup group', () => {
    const values = {
      ...emptyTokenForm(now),
      name: 'app',
      neverExpires: false,
      expiresAt: toLocalInput(now - 60),
      group: 'vip',
      backupGroup: 'vip',
      ipLimitEnabled: true,
      ipWhitelist: '10.0.0.0/8\n\nnope',
    };
    const result = validateTokenForm(values, null, now, t);
    if (result.ok) throw new Error('accepted');
    expect(result.errors.ipWhitelist).toBe('token:form.errors.ip {"value":"nope"}');
    expect(result.errors.expiresAt).toBe('token:form.errors.expiryPast');
    expect(result.errors.backupGroup).toBe('token:form.errors.backupSame');
    // Editing may keep a past expiry: the server only checks it on creation.
    const edit = validateTokenForm({ ...values, group: '', ipWhitelist: '10.0.0.0/8' }, 7, now, t);
    expect(edit.ok).toBe(true);
  });

  it('round-trips datetime-local values in local time', () => {
    expect(fromLocalInput(toLocalInput(now))).toBe(now - (now % 60));
    expect(Number.isNaN(fromLocalInput(''))).toBe(true);
  });
});

describe('token list URL state', () => {
  it('reads only what the server accepts and writes only what differs from the defaults', () => {
    const params = parseTokenListParams(new URLSearchParams('keyword=ab&order=-name&page=3&size=20'));
    expect(params).toEqual({ keyword: 'ab', order: '-name', page: 3, size: 20 });
    expect(parseTokenListParams(new URLSearchParams('order=key&page=-1&size=7'))).toEqual({
      keyword: '',
      order: '',
      page: 1,
      size: 10,
    });
    expect(tokenListSearch({ keyword: '', order: '', page: 1, size: 10 }).toString()).toBe('');
    expect(tokenListSearch(params).toString()).toBe('keyword=ab&order=-name&page=3&size=20');
  });
});
