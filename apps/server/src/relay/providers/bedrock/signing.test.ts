import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticate, createSigner, KEY_FORMAT, parseBedrockKey, runtimeEndpoint } from './signing.js';

const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const VECTOR_DATE = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));

describe('parseBedrockKey', () => {
  it('reads Region|AccessKeyId|SecretAccessKey, with an optional session token', () => {
    expect(parseBedrockKey('us-east-1|AKIDEXAMPLE|secret/key+1')).toEqual({
      kind: 'sigv4',
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret/key+1',
    });
    expect(parseBedrockKey(' eu-central-1 | ASIAEXAMPLE | secret | FwoGZXIvYXdzEJr// ')).toEqual({
      kind: 'sigv4',
      region: 'eu-central-1',
      accessKeyId: 'ASIAEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'FwoGZXIvYXdzEJr//',
    });
    expect(parseBedrockKey('us-gov-west-1|AK|SK').region).toBe('us-gov-west-1');
  });

  it('reads Region|APIKey as a bearer token', () => {
    expect(parseBedrockKey('ap-southeast-2|ABSKQmVkcm9ja0FQSUtleQ==')).toEqual({
      kind: 'bearer',
      region: 'ap-southeast-2',
      token: 'ABSKQmVkcm9ja0FQSUtleQ==',
    });
  });

  it('refuses other shapes by naming the expected format, without echoing the secret', () => {
    for (const key of [
      '',
      'just-a-key',
      'us-east-1|AK|SK|TOKEN|MORE',
      'us-east-1||SK',
      'Virginia|AK|SK',
      'AK|SK|us-east-1',
    ]) {
      expect(() => parseBedrockKey(key)).toThrow(KEY_FORMAT);
    }
    try {
      parseBedrockKey('Virginia|AKIDEXAMPLE|topsecretvalue');
    } catch (error) {
      expect(String(error)).toContain('AWS region');
      expect(String(error)).not.toContain('topsecretvalue');
    }
  });

  it('knows the default endpoint of a region', () => {
    expect(runtimeEndpoint('us-west-2')).toBe('https://bedrock-runtime.us-west-2.amazonaws.com');
  });
});

describe('createSigner against the AWS SigV4 test suite', () => {
  // The suite's requests sign host and x-amz-date only, with no body-hash header.
  const sign = async (method: string, query: Record<string, string> = {}) => {
    const signer = createSigner(EXAMPLE, 'us-east-1', { service: 'service', applyChecksum: false });
    const signed = await signer.sign(
      {
        method,
        protocol: 'https:',
        hostname: 'example.amazonaws.com',
        path: '/',
        query,
        headers: { host: 'example.amazonaws.com' },
      },
      { signingDate: VECTOR_DATE },
    );
    return signed.headers.authorization;
  };
  const prefix =
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=';

  it('get-vanilla', async () => {
    expect(await sign('GET')).toBe(`${prefix}5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`);
  });
  it('get-vanilla-query-order-key-case', async () => {
    expect(await sign('GET', { Param2: 'value2', Param1: 'value1' })).toBe(
      `${prefix}b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500`,
    );
  });
  it('post-vanilla', async () => {
    expect(await sign('POST')).toBe(`${prefix}5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b`);
  });
});

/** The SigV4 chain written out independently, for checking what the library signed. */
function referenceSignature(canonicalRequest: string, amzDate: string, region: string, secret: string): string {
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${region}/bedrock/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  let key: Buffer = createHmac('sha256', `AWS4${secret}`).update(day).digest();
  for (const part of [region, 'bedrock', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

describe('authenticate', () => {
  const url = new URL(
    'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke',
  );
  const body = Buffer.from(
    '{"anthropic_version":"bedrock-2023-05-31","max_tokens":10,"messages":[{"role":"user","content":"Hi ✓"}]}',
  );
  const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  const own = { 'content-type': 'application/json', accept: 'application/json' };

  it('signs host, date, body hash and content headers for service bedrock', async () => {
    const credentials = parseBedrockKey(`us-east-1|${EXAMPLE.accessKeyId}|${EXAMPLE.secretAccessKey}`);
    const headers = await authenticate(credentials, url, body, own, date);
    expect(Object.keys(headers).sort()).toEqual([
      'accept',
      'authorization',
      'content-type',
      'x-amz-content-sha256',
      'x-amz-date',
    ]);
    expect(headers['x-amz-date']).toBe('20240102T030405Z');
    expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20240102\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
  });

  it('signs the model id path double-encoded (%3A as %253A), as AWS wants for non-S3 services', async () => {
    const credentials = parseBedrockKey(`us-east-1|${EXAMPLE.accessKeyId}|${EXAMPLE.secretAccessKey}`);
    const headers = await authenticate(credentials, url, body, own, date);
    const hash = createHash('sha256').update(body).digest('hex');
    const canonical = (path: string) =>
      [
        'POST',
        path,
        '',
        'accept:application/json',
        'content-type:application/json',
        `host:${url.host}`,
        `x-amz-content-sha256:${hash}`,
        'x-amz-date:20240102T030405Z',
        '',
        'accept;content-type;host;x-amz-content-sha256;x-amz-date',
        hash,
      ].join('\n');
    const signature = headers.authorization?.split('Signature=')[1];
    const doubled = '/model/anthropic.claude-3-5-sonnet-20241022-v2%253A0/invoke';
    expect(signature).toBe(
      referenceSignature(canonical(doubled), '20240102T030405Z', 'us-east-1', EXAMPLE.secretAccessKey),
    );
    const once = '/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke';
    expect(signature).not.toBe(
      referenceSignature(canonical(once), '20240102T030405Z', 'us-east-1', EXAMPLE.secretAccessKey),
    );
  });

  it('signs the port of a non-default endpoint, and a session token', async () => {
    const local = new URL('http://127.0.0.1:8123/model/amazon.nova-lite-v1%3A0/converse');
    const credentials = parseBedrockKey(`us-west-2|${EXAMPLE.accessKeyId}|${EXAMPLE.secretAccessKey}|SESSION/TOKEN==`);
    const headers = await authenticate(credentials, local, body, { 'content-type': 'application/json' }, date);
    expect(headers['x-amz-security-token']).toBe('SESSION/TOKEN==');
    expect(headers.authorization).toContain('/us-west-2/bedrock/aws4_request');
    expect(headers.authorization).toContain(
      'SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,',
    );
    // The same request re-signed by a verifier that saw host 127.0.0.1:8123 agrees.
    const verifier = createSigner({ ...EXAMPLE, sessionToken: 'SESSION/TOKEN==' }, 'us-west-2');
    const again = await verifier.sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: 8123,
        path: local.pathname,
        query: {},
        headers: { 'content-type': 'application/json', host: '127.0.0.1:8123' },
        body,
      },
      { signingDate: date },
    );
    expect(again.headers.authorization).toBe(headers.authorization);
    const tampered = await verifier.sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: '127.0.0.1',
        port: 8123,
        path: local.pathname,
        query: {},
        headers: { 'content-type': 'application/json', host: '127.0.0.1:8123' },
        body: Buffer.concat([body, Buffer.from(' ')]),
      },
      { signingDate: date },
    );
    expect(tampered.headers.authorization).not.toBe(headers.authorization);
  });

  it('sends a Bedrock API key as a bearer token, unsigned', async () => {
    const headers = await authenticate(parseBedrockKey('us-east-1|ABSKtoken'), url, body, own, date);
    expect(headers).toEqual({ ...own, authorization: 'Bearer ABSKtoken' });
  });
});
