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
  it('accepts RS256 and ES256 tokens from keys in the JWKS', async () => {
    const rsaToken = signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    expect((await verifyIdToken(rsaToken, jwks, expected)).sub).toBe('user-1');
    const input = `${b64({ alg: 'ES256', kid: 'ec-1' })}.${b64(claims)}`;
    const signature = sign('sha256', Buffer.from(input), { key: ec.privateKey, dsaEncoding: 'ieee-p1363' });
    expect((await verifyIdToken(`${input}.${signature.toString('base64url')}`, jwks, expected)).sub).toBe('user-1');
  });

  it('accepts an audience list that holds the client id', async () => {
    const token = signJwt({ ...claims, aud: ['other', 'client-1'], azp: 'client-1' }, rsa.privateKey, {
      alg: 'RS256',
      kid: 'rsa-1',
    });
    expect((await verifyIdToken(token, jwks, expected)).sub).toBe('user-1');
  });

  it('refuses "none" and HMAC, even keyed with the public key', async () => {
    const unsigned = `${b64({ alg: 'none' })}.${b64(claims)}.`;
    await expect(verifyIdToken(unsigned, jwks, expected)).rejects.toThrow(IdTokenError);
    const input = `${b64({ alg: 'HS256', kid: 'rsa-1' })}.${b64(claims)}`;
    const secret = rsa.publicKey.export({ format: 'pem', type: 'spki' });
    const forged = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    await expect(verifyIdToken(forged, jwks, expected)).rejects.toThrow(/not accepted/);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' }).split('.');
    const tampered = `${header}.${b64({ ...claims, sub: 'admin' })}.${signature}`;
    await expect(verifyIdToken(tampered, jwks, expected)).rejects.toThrow(/signature/);
  });

  it('reports an unknown key id separately, so the caller can refetch the JWKS', async () => {
    const token = signJwt(claims, rsa.privateKey, { alg: 'RS256', kid: 'rotated' });
    await expect(verifyIdToken(token, jwks, expected)).rejects.toThrow(UnknownSigningKeyError);
  });

  it('tries every key of the right type when the token names none', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const twoKeys = { keys: [{ ...other.publicKey.export({ format: 'jwk' }) }, ...jwks.keys] };
    const token = signJwt(claims, rsa.privateKey, { alg: 'RS256' });
    expect((await verifyIdToken(token, twoKeys, expected)).sub).toBe('user-1');
    const stranger = signJwt(claims, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, { alg: 'RS256' });
    await expect(verifyIdToken(stranger, twoKeys, expected)).rejects.toThrow(/signature/);
  });

  it.each([
    [{ iss: 'https://elsewhere.example' }, 'another issuer'],
    [{ aud: 'someone-else' }, 'another client'],
    [{ nonce: 'n-2' }, 'nonce'],
  ])('refuses claims %j that do not match this sign-in', async (override, message) => {
    const token = signJwt({ ...claims, ...override }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    await expect(verifyIdToken(token, jwks, expected)).rejects.toThrow(message);
  });

  it.each([
    [{ azp: 'someone-else' }, 'another client'],
    [{ exp: undefined }, 'expired'],
    [{ nbf: now + 3600 }, 'not valid yet'],
    [{ sub: '' }, 'subject'],
  ])('refuses claims %j', async (override, message) => {
    const token = signJwt({ ...claims, ...override }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    await expect(verifyIdToken(token, jwks, expected)).rejects.toThrow(message);
  });

  it('tolerates a minute of clock difference on exp, and no more', async () => {
    const token = signJwt({ ...claims, exp: now - 30 }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    expect((await verifyIdToken(token, jwks, expected)).sub).toBe('user-1');
    const late = signJwt({ ...claims, exp: now - 61 }, rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' });
    await expect(verifyIdToken(late, jwks, expected)).rejects.toThrow('has expired');
  });
});
