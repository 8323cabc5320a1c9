import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../../../../test/api/account/oidc-provider.js';
import { IdTokenError, UnknownSigningKeyError, verifyIdToken } from './id-token.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwks = {
  keys: [
    { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa-1', use: 'sig' },
    { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', use: 'sig' },
  ],
};
const now = 1_700_000_000;
const expected = { issuer: 'https://idp.example', clientId: 'client-1', nonce: 'n-1', nowSeconds: now };
const claims = { iss: 'https://idp.example', aud: 'client-1', sub: 'user-1', exp: now + 60, nonce: 'n-1' };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('verifyIdToken', () => {
  it('accepts RS256 and ES256 tokens from keys in the JWKS', () => {
    expect(verifyIdToken(signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' }), jwks, expected).sub).toBe(
      'user-1',
    );
    const input = `${b64({ alg: 'ES256', kid: 'ec-1' })}.${b64(claims)}`;
    const signature = sign('sha256', Buffer.from(input), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifyIdToken(`${input}.${signature.toString('base64url')}`, jwks, expected).sub).toBe('user-1');
  });

  it('accepts an audience list that holds the client id', () => {
    const token = signJwt({ ...claims, aud: ['other', 'client-1'], azp: 'client-1' }, rsa.privateKey, {
      alg: 'RS256',
      kid: 'rsa-1',
    });
    expect(verifyIdToken(token, jwks, expected).sub).toBe('user-1');
  });

  it('refuses "none" and HMAC, even keyed with the public key', () => {
    const unsigned = `${b64({ alg: 'none' })}.${b64(claims)}.`;
    expect(() => verifyIdToken(unsigned, jwks, expected)).toThrow(IdTokenError);
    const input = `${b64({ alg: 'HS256', kid: 'rsa-1' })}.${b64(claims)}`;
    const secret = rsa.publicKey.export({ format: 'pem', type: 'spki' });
    const forged = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    expect(() => verifyIdToken(forged, jwks, expected)).toThrow(/not accepted/);
  });

  it('refuses a tampered payload', () => {
    const [header, , signature] = signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' }).split('.');
    const tampered = `${header}.${b64({ ...claims, sub: 'admin' })}.${signature}`;
    expect(() => verifyIdToken(tampered, jwks, expected)).toThrow(/signature/);
  });

  it('reports an unknown key id separately, so the caller can refetch the JWKS', () => {
    const token = signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rotated' });
    expect(() => verifyIdToken(token, jwks, expected)).toThrow(UnknownSigningKeyError);
  });

  it.each([
    [{ azp: 'someone-else' }, 'another client'],
    [{ exp: undefined }, 'expired'],
    [{ nbf: now + 3600 }, 'not valid yet'],
    [{ sub: '' }, 'subject'],
  ])('refuses claims %j', (override, message) => {
    const token = signJwt({ ...claims, ...override }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    expect(() => verifyIdToken(token, jwks, expected)).toThrow(message);
  });

  it('tolerates a minute of clock difference on exp', () => {
    const token = signJwt({ ...claims, exp: now - 30 }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    expect(verifyIdToken(token, jwks, expected).sub).toBe('user-1');
  });
});
