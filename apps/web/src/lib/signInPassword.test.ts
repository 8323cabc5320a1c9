import { afterEach, describe, expect, it } from 'vitest';
import { forgetSignInPassword, noteSignInPassword, signInPassword } from './signInPassword.js';

describe('the password just signed in with', () => {
  afterEach(forgetSignInPassword);

  it('is kept only when the account must replace it', () => {
    noteSignInPassword('generated-by-the-server', true);
    expect(signInPassword()).toBe('generated-by-the-server');
    noteSignInPassword('a-chosen-one', false);
    expect(signInPassword()).toBeUndefined();
  });

  it('is dropped once used', () => {
    noteSignInPassword('generated-by-the-server', true);
    forgetSignInPassword();
    expect(signInPassword()).toBeUndefined();
  });
});
