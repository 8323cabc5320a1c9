import type { UserView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { emptyUserForm, formFieldOf, userFormFields, userToForm, validateUserForm } from './userForm.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);

describe('validateUserForm for a new user', () => {
  const valid = { ...emptyUserForm(), username: 'alice', password: 'password-1' };

  it('sends username, password, display name and group', () => {
    const result = validateUserForm({ ...valid, displayName: ' Alice ', group: 'vip' }, null, t);
    expect(result).toEqual({
      ok: true,
      body: { username: 'alice', password: 'password-1', display_name: 'Alice', group: 'vip' },
    });
  });

  it('leaves an empty display name out, so the server uses the username', () => {
    const result = validateUserForm(valid, null, t);
    expect(result.ok && result.body).toEqual({ username: 'alice', password: 'password-1', group: 'default' });
  });

  it('requires a username of 3 to 12 characters and a password of at least 8', () => {
    const empty = validateUserForm(emptyUserForm(), null, t);
    expect(empty.ok).toBe(false);
    if (empty.ok) return;
    expect(empty.errors.username).toBe('user:form.errors.usernameRequired');
    expect(empty.errors.password).toBe('user:form.errors.passwordRequired');

    const short = validateUserForm({ ...valid, username: 'al', password: '1234567' }, null, t);
    expect(short.ok).toBe(false);
    if (short.ok) return;
    expect(short.errors.username).toBe('user:form.errors.usernameLength:{"min":3,"max":12}');
    expect(short.errors.password).toBe('user:form.errors.passwordTooShort:{"min":8}');

    const long = validateUserForm({ ...valid, username: 'a'.repeat(13), password: 'p'.repeat(65) }, null, t);
    expect(long.ok || long.errors).toEqual({
      username: 'user:form.errors.usernameLength:{"min":3,"max":12}',
      password: 'user:form.errors.passwordTooLong:{"max":64}',
    });
  });

  it('refuses a display name over 20 characters and an empty group', () => {
    const result = validateUserForm({ ...valid, displayName: 'x'.repeat(21), group: '' }, null, t);
    expect(result.ok || result.errors).toEqual({
      displayName: 'user:form.errors.displayNameTooLong:{"max":20}',
      group: 'user:form.errors.groupRequired',
    });
  });
});

describe('validateUserForm for an existing user', () => {
  const user = { id: 7, username: 'bob', display_name: 'Bob', group: 'default' } as UserView;

  it('keeps the password when it is left empty and never sends the username', () => {
    const result = validateUserForm({ ...userToForm(user), displayName: 'Bobby', group: 'vip' }, 7, t);
    expect(result).toEqual({
      ok: true,
      body: { id: 7, display_name: 'Bobby', group: 'vip', password: undefined, budgets: [] },
    });
  });

  it('checks a new password for length', () => {
    const result = validateUserForm({ ...userToForm(user), password: 'short' }, 7, t);
    expect(result.ok || result.errors).toEqual({ password: 'user:form.errors.passwordTooShort:{"min":8}' });
    const fine = validateUserForm({ ...userToForm(user), password: 'long-enough' }, 7, t);
    expect(fine.ok && fine.body).toMatchObject({ password: 'long-enough' });
  });
});

describe('formFieldOf', () => {
  it("finds the form's field for the field a server refusal names", () => {
    expect(formFieldOf('username')).toBe('username');
    expect(formFieldOf('group')).toBe('group');
    expect(formFieldOf('display_name')).toBe('displayName');
    expect(formFieldOf('role')).toBeUndefined();
  });
});

describe("the dialog on the caller's own row", () => {
  it('offers no password and a fixed group there, every field on another row or a new user', () => {
    expect(userFormFields({ id: 7 }, 7)).toEqual({ password: 'profile', groupEditable: false });
    expect(userFormFields({ id: 8 }, 7)).toEqual({ password: 'change', groupEditable: true });
    expect(userFormFields(null, 7)).toEqual({ password: 'create', groupEditable: true });
  });

  it('sends only the display name, never a password or group the server would refuse', () => {
    const values = { username: 'ops', displayName: ' Ops ', password: 'new-password-1', group: 'vip', budgets: [] };
    expect(validateUserForm(values, 7, t, true)).toEqual({ ok: true, body: { id: 7, display_name: 'Ops' } });
    const other = validateUserForm(values, 8, t);
    expect(other.ok && other.body).toEqual({
      id: 8,
      display_name: 'Ops',
      password: 'new-password-1',
      group: 'vip',
      budgets: [],
    });
  });
});

describe("a user's budgets per window (issue 33)", () => {
  const dollars = { currency: true, quotaPerUnit: 500_000 };
  const rows = [{ period: 'month' as const, quota: '10', requests: '', tokens: '' }];

  it('sends the windows of a new user only when there are some, and of an edited one always', () => {
    const valid = { ...emptyUserForm(), username: 'alice', password: 'password-1' };
    const created = validateUserForm({ ...valid, budgets: rows }, null, t, false, dollars);
    expect(created.ok && created.body).toMatchObject({ budgets: [{ period: 'month', quota: 5_000_000 }] });
    const plain = validateUserForm(valid, null, t, false, dollars);
    expect(plain.ok && 'budgets' in plain.body).toBe(false);
    const edited = validateUserForm({ ...valid, budgets: [] }, 8, t, false, dollars);
    expect(edited.ok && edited.body).toMatchObject({ budgets: [] });
  });

  it("never sends the caller's own windows, which the admin route refuses", () => {
    const own = validateUserForm({ ...emptyUserForm(), displayName: 'me', budgets: rows }, 7, t, true, dollars);
    expect(own).toEqual({ ok: true, body: { id: 7, display_name: 'me' } });
  });

  it('names a refused window on its input', () => {
    const bad = [{ period: 'day' as const, quota: '', requests: '0', tokens: '' }];
    const result = validateUserForm({ ...emptyUserForm(), displayName: 'x', budgets: bad }, 8, t, false, dollars);
    expect(result.ok || result.errors).toEqual({ 'budgets.0.requests': 'budget:errors.count' });
  });
});
