import { describe, expect, it } from 'vitest';
import { githubAuthorizeUrl, larkAuthorizeUrl, telegramBotUrl } from '../../lib/oauthLinks.js';
import { checkAccountForm } from './accountForm.js';

describe('profile form', () => {
  const values = { displayName: 'Alice', currentPassword: '', password: '', confirmPassword: '' };

  it('keeps the password when both password fields are empty', () => {
    expect(checkAccountForm(values)).toEqual({ body: { display_name: 'Alice' } });
  });

  it('needs at least 8 characters and a matching confirmation', () => {
    const values = { displayName: 'Alice', currentPassword: 'old-password', password: '', confirmPassword: '' };
    expect(checkAccountForm({ ...values, password: 'short', confirmPassword: 'short' }).errors).toEqual({
      password: 'account.errors.passwordTooShort',
    });
    expect(checkAccountForm({ ...values, password: 'long-enough', confirmPassword: 'long-enougH' }).errors).toEqual({
      confirmPassword: 'account.errors.passwordMismatch',
    });
    expect(checkAccountForm({ ...values, password: 'x'.repeat(65), confirmPassword: 'x'.repeat(65) }).errors).toEqual({
      password: 'account.errors.passwordTooLong',
    });
    const complete = {
      ...values,
      currentPassword: 'old-password',
      password: 'long-enough',
      confirmPassword: 'long-enough',
    };
    expect(checkAccountForm(complete).body).toEqual({
      display_name: 'Alice',
      password: 'long-enough',
      original_password: 'old-password',
    });
  });

  it('needs the current password to set a new one', () => {
    expect(checkAccountForm({ ...values, password: 'long-enough', confirmPassword: 'long-enough' }).errors).toEqual({
      currentPassword: 'account.errors.currentPasswordRequired',
    });
  });

  it('removes the ticked passkeys only together with a new password', () => {
    expect(checkAccountForm(values, [3]).body).toEqual({ display_name: 'Alice' });
    const changing = {
      ...values,
      currentPassword: 'old-password',
      password: 'long-enough',
      confirmPassword: 'long-enough',
    };
    expect(checkAccountForm(changing, [3, 5]).body).toMatchObject({ password: 'long-enough', remove_passkeys: [3, 5] });
    expect(checkAccountForm(changing, []).body).not.toHaveProperty('remove_passkeys');
  });

  it('limits the display name to 20 characters', () => {
    expect(checkAccountForm({ ...values, displayName: 'n'.repeat(21) }).errors).toEqual({
      displayName: 'account.errors.displayNameTooLong',
    });
  });
});

describe('binding redirects', () => {
  it('sends GitHub the client id, the state and the e-mail scope', () => {
    const url = new URL(githubAuthorizeUrl('Iv1.abc', 'state123'));
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'Iv1.abc',
      state: 'state123',
      scope: 'user:email',
    });
  });

  it('sends Lark back to the console’s own /oauth/lark page', () => {
    const url = new URL(larkAuthorizeUrl('cli_1', 'st', 'http://127.0.0.1:3000/hub/oauth/lark'));
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:3000/hub/oauth/lark');
    expect(url.searchParams.get('app_id')).toBe('cli_1');
  });

  it('links to the Telegram bot by name', () => {
    expect(telegramBotUrl('@one_hub_bot')).toBe('https://t.me/one_hub_bot');
  });
});
