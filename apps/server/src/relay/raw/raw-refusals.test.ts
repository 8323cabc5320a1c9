import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { partialPost } from '../../../test/partial-request.js';
import { type RawRelay, startRawRelay } from '../../../test/providers/raw/raw-relay.js';

/**
 * What the raw pass-through refuses, and how: a channel must be named (403), be enabled (403) and
 * be an OpenAI or Azure one (400); the key's own checks still apply; an unknown key is refused
 * before its body is read; the upstream's errors reach the client as they are, and an upstream
 * that does not answer is a 502 that does not name its address.
 */
describe('the raw pass-through refuses', () => {
  let raw: RawRelay;
  const origin = () => raw.r.baseURL.replace(/\/v1$/, '');

  beforeAll(async () => {
    raw = await startRawRelay();
  }, 60_000);
  afterAll(async () => {
    await raw?.close();
  });
  beforeEach(() => raw.mock.reset());

  it('a request that names no channel, with 403 in OpenAI’s format', async () => {
    const refused = await raw
      .client()
      .files.list()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const error = (refused as InstanceType<typeof OpenAI.PermissionDeniedError>).error as Record<string, unknown>;
    expect(error.type).toBe('permission_error');
    expect(String(error.message)).toContain('this endpoint needs a channel: use sk-…#<channel id>');
    expect(raw.mock.received).toHaveLength(0);
  });

  it('a channel that does not exist (403) or cannot serve these APIs (400, naming its type)', async () => {
    await expect(raw.client(999_999).files.list()).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('channel 999999 does not exist or is disabled'),
    });
    // The refusal names the channel's type as the client knows it, by its wire number (14, Anthropic).
    await expect(raw.client(raw.channels.claude).files.list()).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`channel ${raw.channels.claude} is of type 14 (Anthropic Claude)`),
    });
    expect(raw.mock.received).toHaveLength(0);
  });

  it('a channel named by a key that is not an administrator’s, and a key the IP allow-list refuses', async () => {
    const user = new OpenAI({
      apiKey: `${raw.r.apiKey}#${raw.channels.openai}`,
      baseURL: raw.r.baseURL,
      maxRetries: 0,
    });
    await expect(user.files.list()).rejects.toMatchObject({ status: 403 });
    const cookie = await raw.r.t.login('root', 'root-password-123');
    const fenced = await raw.r.newKey(cookie, {
      name: 'fenced',
      setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['10.1.2.3'] } } },
    });
    const client = new OpenAI({ apiKey: `${fenced}#${raw.channels.openai}`, baseURL: raw.r.baseURL, maxRetries: 0 });
    await expect(client.files.list()).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('is not allowed to use this API key'),
    });
    expect(raw.mock.received).toHaveLength(0);
  });

  it('a request over the key’s requests per minute, with 429 and Retry-After', async () => {
    const cookie = await raw.r.t.login('root', 'root-password-123');
    const once = await raw.r.newKey(cookie, { name: 'one a minute', setting: { limits: { rpm: 1 } } });
    const headers = { authorization: `Bearer ${once}#${raw.channels.openai}` };
    expect((await fetch(`${raw.r.baseURL}/files`, { headers })).status).toBe(200);
    const limited = await fetch(`${raw.r.baseURL}/files`, { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(raw.mock.received).toHaveLength(1);
  });

  it('an unknown key, or no channel, before reading the body', async () => {
    const declared = 50 * 1024 * 1024;
    const headers = { 'content-type': 'multipart/form-data; boundary=x' };
    const unknown = await partialPost(
      origin(),
      '/v1/files',
      { ...headers, authorization: `Bearer sk-${'z'.repeat(48)}#${raw.channels.openai}` },
      declared,
      '--x\r\n',
    );
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body).error.message).toContain('invalid API key');
    const unnamed = await partialPost(
      origin(),
      '/v1/files',
      { ...headers, authorization: `Bearer ${raw.rootKey}` },
      declared,
      '--x\r\n',
    );
    expect(unnamed.status).toBe(403);
    expect(unnamed.headers.connection).toBe('close');
    expect(raw.mock.received).toHaveLength(0);
  });

  it('nothing the upstream says: its error status and body reach the client', async () => {
    const client = raw.client(raw.channels.openai);
    await expect(client.files.retrieve('file-missing')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('No such File object: file-missing'),
    });
    raw.mock.behaviour.failure = { status: 429, message: 'Rate limit reached for files' };
    const limited = await client.files.list().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as Error).message).toContain('Rate limit reached for files');
  });

  it('an upstream that does not answer, with a 502 that names the channel and not its address', async () => {
    const failed = await raw
      .client(raw.channels.down)
      .files.list()
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((failed as Error).message).toContain(`channel ${raw.channels.down} did not answer`);
    expect((failed as Error).message).not.toContain('127.0.0.1');
  });
});
