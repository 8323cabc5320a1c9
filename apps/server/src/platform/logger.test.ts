import { describe, expect, it } from 'vitest';
import { createLogger, maskUrlSecrets } from './logger.js';
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

  it('hides the access token of MCP URLs', () => {
    expect(maskUrlSecrets('/mcp/tok3n-Value_1')).toBe('/mcp/***');
    expect(maskUrlSecrets('/mcp/sse/tok3n-Value_1')).toBe('/mcp/sse/***');
    expect(maskUrlSecrets('/mcp/message/tok3n%2FValue?sessionId=abc')).toBe('/mcp/message/***?sessionId=abc');
  });
});

describe('logged errors', () => {
  it('mask a credential an upstream quoted in its message and stack, on stdout as in the buffer', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    logger.error({ err: new Error('upstream said: invalid key sk-abcdefghijklmnop for user') }, 'request failed');
    const record = JSON.parse(lines[0] ?? '{}');
    expect(record.err.message).toBe('upstream said: invalid key sk-*** for user');
    expect(record.err.stack).not.toContain('sk-abcdefghijklmnop');
    expect(record.err.type).toBe('Error');
  });
});
