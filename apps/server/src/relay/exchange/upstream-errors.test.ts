import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import {
  accountKeyword,
  adminMessage,
  classifyUpstreamError,
  malformedAnswer,
  maskAddress,
  networkFailure,
  withoutChannelKey,
} from './upstream-errors.js';

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

  it('disables on 401, account codes and types (a 403 included), and PERMISSIONDENIED', () => {
    expect(classify(401).disable).toBe(true);
    expect(classify(403, { message: 'x', code: 'account_deactivated' }).disable).toBe(true);
    expect(classify(403, { message: 'x', type: 'permission_error' }).disable).toBe(true);
    expect(classify(429, { message: 'x', type: 'insufficient_quota' }).disable).toBe(true);
    expect(classify(429, { message: 'x', code: 'billing_hard_limit_reached' }).disable).toBe(true);
    expect(classify(400, { message: 'x', type: 'authentication_error' }).disable).toBe(true);
    expect(classify(400, { message: 'x', param: 'PERMISSIONDENIED' }).disable).toBe(true);
    expect(classify(400, { message: 'x', type: 'invalid_request_error', param: 'model' }).disable).toBe(false);
  });

  it("reads Google's error.status and the bad-key reason, not the message", () => {
    const google = (status: number, error: Record<string, unknown>) => classifyUpstreamError(status, body(error));
    expect(google(403, { code: 403, message: 'x', status: 'PERMISSION_DENIED' }).disable).toBe(true);
    const badKey = { code: 400, message: 'x', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] };
    expect(google(400, badKey).disable).toBe(true);
    expect(
      classifyUpstreamError(400, `[${body({ code: 400, message: 'x', status: 'UNAUTHENTICATED' })}]`).disable,
    ).toBe(true);
    const echo = { code: 400, message: 'Unknown name "API key not valid"', status: 'INVALID_ARGUMENT' };
    expect(google(400, echo).disable).toBe(false);
  });

  it('never disables on message text the client may have written, whatever the status', () => {
    const echoed = { message: 'invalid api key, account deactivated, Your credit balance is too low' };
    for (const status of [400, 404, 422, 429, 500]) expect(classify(status, echoed).disable, `${status}`).toBe(false);
    // A block page from a firewall or proxy in front of the vendor can be provoked by the request's content.
    expect(classifyUpstreamError(403, '<html>Request blocked</html>').disable).toBe(false);
  });

  it('does not disable on a JSON 403 without an account-level code or type (another gateway, a firewall)', () => {
    const echoes = [
      { message: 'invalid api key, account deactivated: <the client input>', type: 'invalid_request_error' },
      { message: 'blocked: <the client input>', type: 'new_api_error', code: 'content_blocked' },
      { message: 'forbidden word in <the client input>' },
    ];
    for (const error of echoes) {
      expect(classify(403, error), JSON.stringify(error)).toMatchObject({ disable: false, retry: true });
    }
    expect(classifyUpstreamError(403, JSON.stringify({ message: 'echo' })).disable).toBe(false);
  });

  it('searches the configured keywords only when the caller passes them (channel tests)', () => {
    expect(classify(500, { message: 'the organization was banned' }, ['', 'was banned']).disable).toBe(true);
    expect(classify(500, { message: 'the model is overloaded' }, ['', 'was banned']).disable).toBe(false);
    expect(classify(500, { message: 'the organization was banned' }).disable).toBe(false);
  });

  it('keeps a rate limit transient even when its text matches a keyword', () => {
    const failure = classify(429, { message: 'You exceeded your current quota', type: 'rate_limit_error' }, [
      'You exceeded your current quota',
    ]);
    expect(failure).toMatchObject({ disable: false, coolDown: true, retry: true });
    // Gemini's per-minute limit: a 429 with a default keyword and no rate-limit type, in a channel
    // test and on a relay call alike; OpenAI's out-of-credit 429 still disables, by its code.
    const gemini = { message: 'You exceeded your current quota, please check your plan', status: 'RESOURCE_EXHAUSTED' };
    expect(classify(429, gemini, ['You exceeded your current quota']).disable).toBe(false);
    expect(accountKeyword(classify(429, gemini), ['You exceeded your current quota'], () => '')).toBeUndefined();
    expect(classify(429, { message: 'You exceeded your current quota', code: 'insufficient_quota' }).disable).toBe(
      true,
    );
  });
});

describe("what a failure says of the channel's health", () => {
  it("classes account, rate-limit, timeout and server failures, and says nothing of the client's mistakes", () => {
    expect(classify(401).class).toBe('account');
    expect(classify(403, { message: 'x', code: 'account_deactivated' }).class).toBe('account');
    expect(classify(429).class).toBe('rate_limit');
    expect(classify(504).class).toBe('timeout');
    expect(classify(500).class).toBe('5xx');
    expect(classify(400).class).toBeUndefined();
    expect(classify(404).class).toBeUndefined();
    expect(networkFailure(Object.assign(new Error('t'), { code: 'UND_ERR_HEADERS_TIMEOUT' })).class).toBe('timeout');
    expect(networkFailure(Object.assign(new Error('r'), { code: 'ECONNREFUSED' })).class).toBe('connection');
    expect(malformedAnswer('not JSON').class).toBe('malformed');
  });

  it('finds a disable keyword in the structured message only when the client did not send it', () => {
    const failure = classify(500, { message: 'Your organization has been disabled.' });
    const keywords = ['has been disabled', 'banned'];
    expect(accountKeyword(failure, keywords, () => '{"messages":[]}')).toBe('has been disabled');
    expect(accountKeyword(failure, keywords, () => 'why has been disabled?')).toBeUndefined();
    // A page from something in between is not the vendor's word.
    const page = classifyUpstreamError(502, '<html>account has been disabled</html>');
    expect(accountKeyword(page, keywords, () => '')).toBeUndefined();
  });
});

describe('networkFailure', () => {
  it('tells the caller a generic reason and keeps the address for administrators', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8080'), { code: 'ECONNREFUSED' });
    const failure = networkFailure(refused);
    expect(failure.error.message).not.toContain('10.1.2.3');
    expect(failure).toMatchObject({ retry: true, disable: false, coolDown: false, timedOut: false });
    expect(adminMessage(failure)).toContain('10.1.2.3:8080');
  });

  it('reads undici timeouts as a 504 that rests the channel and never disables it', () => {
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    const failure = networkFailure(timeout);
    expect(failure.error.status).toBe(504);
    expect(failure).toMatchObject({ retry: true, disable: false, coolDown: true, timedOut: true });
  });
});

describe("masking a channel's secrets out of what the client reads", () => {
  const channel = { key: 'sk-channel-secret-1234', base_url: 'https://Relay.Internal.example:8443/v1/' };
  const failing = (message: string, detail?: string) => ({
    error: new AppError('upstream_error', message, { status: 502 }),
    retry: true,
    disable: false,
    coolDown: false,
    ...(detail ? { detail } : {}),
  });

  it('masks the base URL, its host with and without port, and the host name, in any case', () => {
    const message =
      'POST https://relay.internal.example:8443/v1/chat/completions failed; ' +
      'host relay.internal.example:8443 (RELAY.INTERNAL.EXAMPLE) refused key sk-channel-secret-1234';
    const masked = withoutChannelKey(failing(message), channel).error.message;
    expect(masked.toLowerCase()).not.toContain('relay.internal.example');
    expect(masked).not.toContain('sk-channel-secret-1234');
    expect(masked).toBe('POST [upstream]/chat/completions failed; host [upstream] ([upstream]) refused key [key]');
  });

  it('keeps the address in the detail for administrators, and leaves messages without it alone', () => {
    const failure = withoutChannelKey(failing('bad gateway', 'could not reach relay.internal.example:8443'), channel);
    expect(failure.error.message).toBe('bad gateway');
    expect(failure.detail).toBe('could not reach relay.internal.example:8443');
    expect(maskAddress('model gpt-4o is overloaded', '')).toBe('model gpt-4o is overloaded');
    expect(maskAddress('at http://10.0.0.5:8000/v1', 'http://10.0.0.5:8000')).toBe('at [upstream]/v1');
  });
});
