import { defaultTokenSetting, NEVER_EXPIRES, type TokenView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  emptyTokenForm,
  fromLocalInput,
  ownerTransfer,
  tokenToForm,
  toLocalInput,
  validateTokenForm,
} from './tokenForm.js';
import { parseTokenListParams, tokenListSearch } from './useTokenListParams.js';

const now = 1_800_000_000;
const tokenView: TokenView = {
  id: 7,
  user_id: 1,
  name: 'app',
  key: 'k',
  status: 1,
  created_time: 0,
  accessed_time: 0,
  expired_time: NEVER_EXPIRES,
  remain_quota: 0,
  unlimited_quota: false,
  used_quota: 0,
  group: '',
  backup_group: '',
  setting: defaultTokenSetting(),
};
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

  it('takes the quota in US dollars when the site shows currency, as the balance dialog does', () => {
    const dollars = { currency: true, quotaPerUnit: 500_000 };
    expect(emptyTokenForm(now, dollars).remainQuota).toBe('1');
    const result = validateTokenForm(
      { ...emptyTokenForm(now, dollars), name: 'app', remainQuota: '2.50' },
      null,
      now,
      t,
      dollars,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.body.remain_quota).toBe(1_250_000);
    const refused = validateTokenForm(
      { ...emptyTokenForm(now, dollars), name: 'app', remainQuota: '-1' },
      null,
      now,
      t,
      dollars,
    );
    if (refused.ok) throw new Error('a negative amount was accepted');
    expect(refused.errors.remainQuota).toBe('token:form.errors.quotaCurrency');
  });

  it('gives back the exact stored quota of a key edited without touching its amount', () => {
    const odd = { currency: true, quotaPerUnit: 7 };
    for (const quota of [0, 1, 123_457, 9_999_999_999]) {
      const values = tokenToForm({ ...tokenView, remain_quota: quota }, now, odd);
      const result = validateTokenForm(values, tokenView.id, now, t, odd);
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      expect(result.body.remain_quota).toBe(quota);
    }
  });

  it('lets the chat cache answer a new key unless its switch is turned off', () => {
    const fresh = validateTokenForm({ ...emptyTokenForm(now), name: 'app' }, null, now, t);
    if (!fresh.ok) throw new Error(JSON.stringify(fresh.errors));
    expect(fresh.body.setting?.chat_cache).toBe(true);
    const optedOut = validateTokenForm({ ...emptyTokenForm(now), name: 'app', chatCache: false }, null, now, t);
    if (!optedOut.ok) throw new Error(JSON.stringify(optedOut.errors));
    expect(optedOut.body.setting?.chat_cache).toBe(false);
  });

  it("sends the key's billing tag back as it was read, '' when it has none (which clears it)", () => {
    const tagged = { ...tokenView, setting: { ...defaultTokenSetting(), billing_tag: 'research' } };
    expect(tokenToForm(tagged, now).billingTag).toBe('research');
    const kept = validateTokenForm(tokenToForm(tagged, now), tagged.id, now, t);
    if (!kept.ok) throw new Error(JSON.stringify(kept.errors));
    expect(kept.body.setting?.billing_tag).toBe('research');
    const none = validateTokenForm({ ...emptyTokenForm(now), name: 'app' }, null, now, t);
    if (!none.ok) throw new Error(JSON.stringify(none.errors));
    expect(none.body.setting?.billing_tag).toBe('');
    const long = validateTokenForm({ ...emptyTokenForm(now), name: 'app', billingTag: 'x'.repeat(51) }, null, now, t);
    if (long.ok) throw new Error('a 51-character billing tag was accepted');
    expect(long.errors.billingTag).toBe('token:form.errors.group');
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
    const none = { scope: 'own', user_id: '', token_id: '' };
    expect(params).toEqual({ keyword: 'ab', order: '-name', page: 3, size: 20, ...none });
    expect(parseTokenListParams(new URLSearchParams('order=key&page=-1&size=7'))).toEqual({
      keyword: '',
      order: '',
      page: 1,
      size: 10,
      ...none,
    });
    expect(
      tokenListSearch({
        keyword: '',
        order: '',
        page: 1,
        size: 10,
        scope: 'own',
        user_id: '',
        token_id: '',
      }).toString(),
    ).toBe('');
    expect(tokenListSearch(params).toString()).toBe('keyword=ab&order=-name&page=3&size=20');
  });

  it("keeps the administrators' view and its id filters, dropping ids that are not positive whole numbers", () => {
    const params = parseTokenListParams(new URLSearchParams('scope=all&user_id=12&token_id=x7'));
    expect(params).toMatchObject({ scope: 'all', user_id: '12', token_id: '' });
    expect(parseTokenListParams(new URLSearchParams('scope=all&user_id=0&token_id=-3'))).toMatchObject({
      user_id: '',
      token_id: '',
    });
    expect(tokenListSearch({ ...params, token_id: '5' }).toString()).toBe('scope=all&user_id=12&token_id=5');
    // Outside that view the filters are not written (they would filter nothing).
    expect(tokenListSearch({ ...params, scope: 'own' }).toString()).toBe('');
    expect(parseTokenListParams(new URLSearchParams('scope=mine')).scope).toBe('own');
  });
});

describe('moving a key to another owner', () => {
  it('sends nothing while the field names the owner, the new id otherwise, and refuses non-ids', () => {
    expect(ownerTransfer('7', 7)).toEqual({ ok: true });
    expect(ownerTransfer(' 9 ', 7)).toEqual({ ok: true, userId: 9 });
    for (const text of ['', '0', '-2', '1.5', 'abc']) expect(ownerTransfer(text, 7)).toEqual({ ok: false });
  });
});

describe('budgets and tokens per minute on a key (issue 33)', () => {
  const dollars = { currency: true, quotaPerUnit: 500_000 };

  it('reads the stored windows and TPM into the form and sends them back unchanged', () => {
    const setting = {
      ...defaultTokenSetting(),
      limits: { ...defaultTokenSetting().limits, tpm: 20_000 },
      budgets: [
        { period: '5h' as const, quota: 2_500_000 },
        { period: 'week' as const, requests: 300 },
      ],
    };
    const values = tokenToForm({ ...tokenView, setting }, now, dollars);
    expect(values.tpm).toBe('20000');
    expect(values.budgets).toEqual([
      { period: '5h', quota: '5', requests: '', tokens: '' },
      { period: 'week', quota: '', requests: '300', tokens: '' },
    ]);
    const result = validateTokenForm(values, 7, now, t, dollars);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.body.setting?.budgets).toEqual(setting.budgets);
    expect(result.body.setting?.limits?.tpm).toBe(20_000);
  });

  it("puts a budget row's problem on its input and a bad TPM on the TPM field", () => {
    const values = {
      ...emptyTokenForm(now, dollars),
      name: 'app',
      tpm: '-1',
      budgets: [{ period: 'day' as const, quota: 'abc', requests: '', tokens: '' }],
    };
    const result = validateTokenForm(values, null, now, t, dollars);
    if (result.ok) throw new Error('an unreadable budget was accepted');
    expect(result.errors).toEqual({ tpm: 'token:form.errors.limit', 'budgets.0.quota': 'budget:errors.quotaCurrency' });
    expect(result.unplaced).toEqual([]);
  });
});
