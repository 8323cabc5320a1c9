import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/providers/cohere/test-support.js';
import { classifyAdapterError } from '../../exchange/upstream-errors.js';
import { cohereAdapter } from './adapter.js';

describe('cohereAdapter.parseError', () => {
  it.each([
    [400, 'error-400-invalid-request.json', 'invalid_request_error', /^invalid request: message must be/],
    [401, 'error-401-invalid-token.json', 'authentication_error', /^invalid api token$/],
    [402, 'error-402-payment.json', 'insufficient_quota', /^Please add or update your payment method/],
    [404, 'error-404-model.json', 'not_found_error', /^model 'command-z' not found/],
    [429, 'error-429-trial-limit.json', 'rate_limit_error', /^You are using a Trial key/],
    [500, 'error-500-internal.json', 'api_error', /^internal server error/],
    [503, 'error-503-unavailable.json', 'overloaded_error', /overloaded/],
  ])('reads a %i answer', (status, name, type, message) => {
    const info = cohereAdapter.parseError(status, fixture(name));
    expect(info.status).toBe(status);
    expect(info.type).toBe(type);
    expect(info.message).toMatch(message);
  });

  it('takes the text of a proxy page, an empty body and other JSON shapes', () => {
    expect(cohereAdapter.parseError(502, fixture('error-502-html.txt'))).toEqual({
      status: 502,
      type: 'api_error',
      message: expect.stringContaining('502 Bad Gateway'),
    });
    expect(cohereAdapter.parseError(500, Buffer.alloc(0)).message).toBe('HTTP 500');
    // Untyped: a 403 from whatever is in front of Cohere must not disable the channel.
    expect(cohereAdapter.parseError(403, Buffer.from('{"error":{"message":"blocked"}}'))).toEqual({
      status: 403,
      message: 'blocked',
    });
    expect(classifyAdapterError(cohereAdapter, 403, Buffer.from('{"message":"blocked: echo"}'), []).disable).toBe(
      false,
    );
    expect(cohereAdapter.parseError(498, Buffer.from('{"data":"blocked token"}')).message).toBe('blocked token');
  });

  it('lets the relay retry, cool down and disable as it should', () => {
    const classify = (status: number, name: string) => classifyAdapterError(cohereAdapter, status, fixture(name), []);
    expect(classify(401, 'error-401-invalid-token.json')).toMatchObject({ retry: true, disable: true });
    expect(classify(402, 'error-402-payment.json')).toMatchObject({ retry: true, disable: true });
    expect(classify(429, 'error-429-trial-limit.json')).toMatchObject({ retry: true, coolDown: true, disable: false });
    expect(classify(400, 'error-400-invalid-request.json')).toMatchObject({ retry: false, disable: false });
    expect(classify(503, 'error-503-unavailable.json')).toMatchObject({ retry: true, disable: false });
    expect(classify(404, 'error-404-model.json').error.status).toBe(404);
  });
});
