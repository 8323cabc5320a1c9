import { describe, expect, it } from 'vitest';
import { maskUrlSecrets } from './logger.js';
import { maskEmails } from './mail.js';

describe('maskUrlSecrets', () => {
  it('hides keys, one-time codes and OAuth state in logged URLs', () => {
    const masked = maskUrlSecrets(
      '/api/oauth/github?code=abc123&state=s7&aff=x&turnstile=t0k&key=AIza&access_token=tt&token=r1',
    );
    expect(masked).toBe('/api/oauth/github?code=***&state=***&aff=x&turnstile=***&key=***&access_token=***&token=***');
  });

  it('masks e-mail addresses, raw or percent-encoded, in URLs and error texts', () => {
    expect(maskUrlSecrets('/api/oauth/email/bind?email=jane.doe%40mail.example.com&code=123456')).toBe(
      '/api/oauth/email/bind?email=j***%40mail.example.com&code=***',
    );
    expect(maskEmails('550 5.1.1 <bob+hub@example.org>: Recipient address rejected')).toBe(
      '550 5.1.1 <b***@example.org>: Recipient address rejected',
    );
  });

  it('hides API keys in paths', () => {
    expect(maskUrlSecrets('/v1/x/sk-abcdefghijkl/y')).toBe('/v1/x/sk-***/y');
  });
});
