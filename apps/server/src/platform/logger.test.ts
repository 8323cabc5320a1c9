import { describe, expect, it } from 'vitest';
import { maskUrlSecrets } from './logger.js';

describe('maskUrlSecrets', () => {
  it('hides keys, one-time codes and OAuth state in logged URLs', () => {
    const masked = maskUrlSecrets(
      '/api/oauth/github?code=abc123&state=s7&aff=x&turnstile=t0k&key=AIza&access_token=tt&token=r1',
    );
    expect(masked).toBe('/api/oauth/github?code=***&state=***&aff=x&turnstile=***&key=***&access_token=***&token=***');
  });

  it('hides API keys in paths', () => {
    expect(maskUrlSecrets('/v1/x/sk-abcdefghijkl/y')).toBe('/v1/x/sk-***/y');
  });
});
