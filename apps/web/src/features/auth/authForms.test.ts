import { describe, expect, it } from 'vitest';
import { checkRegisterForm, emailMessage, type RegisterFormValues } from './authForms.js';

const valid: RegisterFormValues = {
  username: 'alice',
  password: 'password-1',
  confirm: 'password-1',
  email: '',
  verification_code: '',
};

const messagesOf = (values: Partial<RegisterFormValues>, emailVerification = false) => {
  const result = checkRegisterForm({ ...valid, ...values }, { emailVerification });
  return result.ok ? {} : result.messages;
};

describe('checkRegisterForm', () => {
  it('accepts a valid form and sends the referral code', () => {
    const result = checkRegisterForm(valid, { emailVerification: false, affCode: 'Ab12' });
    expect(result).toEqual({ ok: true, body: { username: 'alice', password: 'password-1', aff_code: 'Ab12' } });
  });

  it('checks the username length (3 to 12)', () => {
    expect(messagesOf({ username: '' }).username?.key).toBe('validation.usernameRequired');
    expect(messagesOf({ username: 'ab' }).username).toEqual({ key: 'validation.usernameTooShort', values: { min: 3 } });
    expect(messagesOf({ username: 'a'.repeat(13) }).username).toEqual({
      key: 'validation.usernameTooLong',
      values: { max: 12 },
    });
  });

  it('checks the password length (8 to 64, as the server does) and the confirmation', () => {
    expect(messagesOf({ password: 'short', confirm: 'short' }).password).toEqual({
      key: 'validation.passwordTooShort',
      values: { min: 8 },
    });
    const longest = 'p'.repeat(64);
    expect(messagesOf({ password: longest, confirm: longest }).password).toBeUndefined();
    const long = 'p'.repeat(65);
    expect(messagesOf({ password: long, confirm: long }).password).toEqual({
      key: 'validation.passwordTooLong',
      values: { max: 64 },
    });
    // 64 characters but more than the 72 bytes bcrypt reads.
    const wide = '密'.repeat(30);
    expect(messagesOf({ password: wide, confirm: wide }).password).toEqual({
      key: 'validation.passwordTooLong',
      values: { max: 64 },
    });
    expect(messagesOf({ confirm: 'something-else' }).confirm?.key).toBe('validation.passwordMismatch');
  });

  it('needs an e-mail address and a code only when the site verifies addresses', () => {
    expect(messagesOf({}, false)).toEqual({});
    const messages = messagesOf({}, true);
    expect(messages.email?.key).toBe('validation.emailRequired');
    expect(messages.verification_code?.key).toBe('validation.codeRequired');
    expect(messagesOf({ email: 'not-an-address', verification_code: 'x1' }, true).email?.key).toBe(
      'validation.emailInvalid',
    );
    const result = checkRegisterForm(
      { ...valid, email: ' a@example.com ', verification_code: 'ABC123' },
      { emailVerification: true },
    );
    expect(result.ok && result.body).toMatchObject({ email: 'a@example.com', verification_code: 'ABC123' });
  });
});

describe('emailMessage', () => {
  it('accepts an address and names what is wrong otherwise', () => {
    expect(emailMessage('someone@example.com')).toBeNull();
    expect(emailMessage('')?.key).toBe('validation.emailRequired');
    expect(emailMessage('nope')?.key).toBe('validation.emailInvalid');
  });
});
