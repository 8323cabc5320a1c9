import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { bearer, field, type MockHandler } from './http-mock.js';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** Signs a compact JWS with RS256, as an identity provider signs its ID tokens. */
export function signJwt(claims: Record<string, unknown>, key: KeyObject, header: Record<string, unknown>): string {
  const input = `${base64url(JSON.stringify({ typ: 'JWT', ...header }))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${base64url(sign('sha256', Buffer.from(input), key))}`;
}

interface PendingCode {
  claims: Record<string, unknown>;
  /** `stranger` signs with a key the JWKS does not hold, under the issuer's key id. */
  signWith: 'issuer' | 'stranger';
}

/**
 * An OpenID Connect provider under `/oidc`: discovery, authorization-code token endpoint with
 * client_secret_basic, JWKS and userinfo. Tests mint codes with whatever claims they need.
 */
export class OidcProviderMock {
  readonly clientId = 'oidc-client-id';
  readonly clientSecret = 'oidc-client-secret-value';
  readonly kid = 'test-key-1';
  readonly issued: string[] = [];
  issuer = '';
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, Record<string, unknown>>();

  /** Call once the server's address is known. */
  mount(baseUrl: string): void {
    this.issuer = `${baseUrl}/oidc`;
  }

  /** Claims of a valid token for `sub`, with overrides (e.g. a wrong `aud` or a `nonce`). */
  claims(sub: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return { iss: this.issuer, aud: this.clientId, sub, iat: now, exp: now + 300, ...overrides };
  }

  codeFor(claims: Record<string, unknown>, signWith: PendingCode['signWith'] = 'issuer'): string {
    const code = `oidc-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, { claims, signWith });
    return code;
  }

  readonly handler: MockHandler = (call) => {
    if (!call.path.startsWith('/oidc/')) return undefined;
    switch (call.path) {
      case '/oidc/.well-known/openid-configuration':
        return {
          body: {
            issuer: this.issuer,
            authorization_endpoint: `${this.issuer}/authorize`,
            token_endpoint: `${this.issuer}/token`,
            jwks_uri: `${this.issuer}/jwks`,
            userinfo_endpoint: `${this.issuer}/userinfo`,
            response_types_supported: ['code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          },
        };
      case '/oidc/jwks':
        return {
          body: {
            keys: [{ ...this.keys.publicKey.export({ format: 'jwk' }), kid: this.kid, alg: 'RS256', use: 'sig' }],
          },
        };
      case '/oidc/token':
        return this.token(call);
      case '/oidc/userinfo': {
        const claims = this.accessTokens.get(bearer(call));
        return claims ? { body: claims } : { status: 401, body: { error: 'invalid_token' } };
      }
      default:
        return undefined;
    }
  };

  private token(call: Parameters<MockHandler>[0]) {
    const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
    if (call.method !== 'POST' || call.headers.authorization !== expected) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } };
    }
    const pending = this.codes.get(field(call, 'code'));
    if (field(call, 'grant_type') !== 'authorization_code' || !pending) {
      return { status: 400, body: { error: 'invalid_grant', error_description: 'the code is invalid or was used' } };
    }
    this.codes.delete(field(call, 'code'));
    const key = pending.signWith === 'issuer' ? this.keys.privateKey : this.strangerKeys.privateKey;
    const accessToken = `oidc-at-${randomBytes(12).toString('hex')}`;
    this.issued.push(accessToken);
    this.accessTokens.set(accessToken, { sub: pending.claims.sub, preferred_username: 'infouser' });
    return {
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 300,
        id_token: signJwt(pending.claims, key, { alg: 'RS256', kid: this.kid }),
      },
    };
  }
}
