import { describe, expect, it } from 'vitest';
import { classifyUpstreamError } from './upstream-errors.js';

const body = (error: Record<string, unknown>) => JSON.stringify({ error });
const classify = (status: number, error: Record<string, unknown> = { message: 'failed' }, keywords: string[] = []) =>
  classifyUpstreamError(status, body(error), keywords);

describe('classifyUpstreamError', () => {
  it('retries 429, 307, 5xx and other 4xx on another channel, but not 408, 504, 524 or a plain 400', () => {
    for (const status of [429, 307, 500, 502, 503, 401, 403, 404])
      expect(classify(status).retry, `${status}`).toBe(true);
    for (const status of [408, 504, 524, 400]) expect(classify(status).retry, `${status}`).toBe(false);
  });

  it("retries a 400 that is about the channel's own credentials", () => {
    const failure = classify(400, { message: 'Your credit balance is too low to access the API' });
    expect(failure.retry).toBe(true);
    expect(failure.error.status).toBe(502);
    expect(classify(400, { message: 'API key not valid. Please pass a valid API key.' }).retry).toBe(true);
  });

  it('cools a channel down only after a 429', () => {
    expect(classify(429).coolDown).toBe(true);
    expect(classify(503).coolDown).toBe(false);
  });

  it('disables on 401, on account codes and types, on PERMISSIONDENIED and on configured keywords', () => {
    expect(classify(401).disable).toBe(true);
    expect(classify(403, { message: 'x', code: 'account_deactivated' }).disable).toBe(true);
    expect(classify(429, { message: 'x', type: 'insufficient_quota' }).disable).toBe(true);
    expect(classify(403, { message: 'x', param: 'PERMISSIONDENIED' }).disable).toBe(true);
    expect(classify(500, { message: 'the organization was banned' }, ['', 'was banned']).disable).toBe(true);
    expect(classify(500, { message: 'the model is overloaded' }, ['', 'was banned']).disable).toBe(false);
    expect(classify(403, { message: 'x', param: 'model' }).disable).toBe(false);
  });

  it('keeps a rate limit transient even when its text matches a keyword', () => {
    const failure = classify(429, { message: 'You exceeded your current quota', type: 'rate_limit_error' }, [
      'You exceeded your current quota',
    ]);
    expect(failure).toMatchObject({ disable: false, coolDown: true, retry: true });
  });
});
