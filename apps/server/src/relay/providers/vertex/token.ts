import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { type CachedToken, exchangeToken, TokenCache, type TokenPost } from '../token-cache.js';
import { isRecord } from '../values.js';

/**
 * OAuth 2.0 access tokens for Google service accounts (the "two-legged" JWT bearer flow of
 * https://developers.google.com/identity/protocols/oauth2/service-account):
 *
 * 1. A JWT is signed with the key file's RSA private key (RS256), header `{alg, typ, kid}` where
 *    `kid` is the key file's `private_key_id`, claims `iss` = `sub` = `client_email`,
 *    `aud` = `token_uri`, `scope` = cloud-platform, `iat` = now, `exp` = now + one hour.
 * 2. It is exchanged at `token_uri` with the form
 *    `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<jwt>`, which answers
 *    `{access_token, expires_in, token_type: "Bearer"}` or `{error, error_description}`.
 *
 * The class does no I/O of its own: the form is POSTed through the injected `post`, and time comes
 * from the injected clock. Tokens are kept per service account (client_email + private_key_id)
 * until five minutes before they expire; concurrent callers share one exchange in flight; a failed
 * exchange is not remembered. No error message ever carries the private key or the assertion.
 */

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** Lifetime asked of the assertion (Google's maximum). */
const ASSERTION_SECONDS = 3600;

export type { TokenPost };

/** The fields of a service-account key file (the JSON downloaded from the Cloud console) we use. */
export interface ServiceAccount {
  type: string;
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  token_uri: string;
}

/**
 * A channel key → the service account it holds. Throws an Error naming what is wrong, never
 * quoting the key (a JSON parser's message may quote the text around the fault: it is not used).
 */
export function parseServiceAccount(key: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key.trim());
  } catch {
    throw new Error('the Vertex AI channel key is not valid JSON: paste the whole service-account key file');
  }
  if (!isRecord(parsed))
    throw new Error('the Vertex AI channel key must be a service-account key file (a JSON object)');
  if (parsed.type !== undefined && parsed.type !== 'service_account') {
    throw new Error(
      `the Vertex AI channel key is of type ${JSON.stringify(parsed.type)}; a "service_account" key file is required`,
    );
  }
  const text = (name: string): string => {
    const value = parsed[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  for (const name of ['client_email', 'private_key']) {
    if (!text(name)) throw new Error(`the service-account key file has no ${name}`);
  }
  // A key pasted through one escaping too many keeps its line breaks as the two characters `\n`.
  const privateKey = (parsed.private_key as string).replace(/\\n/g, '\n');
  if (!privateKey.includes('PRIVATE KEY-----')) {
    throw new Error('the service-account private_key is not a PEM private key');
  }
  const tokenUri = text('token_uri') || GOOGLE_TOKEN_URI;
  if (!/^https?:\/\//i.test(tokenUri)) throw new Error('the service-account token_uri is not an http(s) URL');
  return {
    type: 'service_account',
    project_id: text('project_id'),
    private_key_id: text('private_key_id'),
    private_key: privateKey,
    client_email: text('client_email'),
    token_uri: tokenUri,
  };
}

/**
 * The key file's private key. node:crypto reads any PEM form (PKCS#8 as Google writes it, or an
 * older PKCS#1 block); OpenSSL's message names the decoder, not the key, so ours says what to fix.
 */
function signingKey(account: ServiceAccount): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(account.private_key);
  } catch {
    throw new Error('the service-account private_key could not sign: it is not a valid RSA private key');
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error('the service-account private_key could not sign: it is not a valid RSA private key');
  }
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new Error('the service-account private_key could not sign: RS256 needs an RSA key of 2048 bits or more');
  }
  return key;
}

/** The signed assertion for `account`, issued at `nowSeconds` (RS256, signed with jose). */
export async function signServiceAccountJwt(account: ServiceAccount, nowSeconds: number): Promise<string> {
  const key = signingKey(account);
  return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.private_key_id ? { kid: account.private_key_id } : {}),
    })
    .setIssuer(account.client_email)
    .setSubject(account.client_email)
    .setAudience(account.token_uri)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ASSERTION_SECONDS)
    .sign(key);
}

/** What the token endpoint said, as an error message (its own words, never the request). */
function endpointFailure(status: number, body: string): string {
  let detail = '';
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed)) {
      const error = parsed.error;
      const description = parsed.error_description;
      if (typeof error === 'string') {
        detail = typeof description === 'string' && description ? `${error}: ${description}` : error;
      } else if (isRecord(error) && typeof error.message === 'string') {
        detail = error.message;
      }
    }
  } catch {
    detail = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  }
  return `the service-account token endpoint answered ${status}${detail ? `: ${detail}` : ''}`;
}

/** The cache id of a service account. */
function accountId(account: Pick<ServiceAccount, 'client_email' | 'private_key_id'>): string {
  return `${account.client_email}\n${account.private_key_id}`;
}

export class ServiceAccountTokens {
  private readonly cache: TokenCache;

  /** `clock` returns milliseconds (Date.now). */
  constructor(
    private readonly post: TokenPost,
    private readonly clock: () => number,
  ) {
    this.cache = new TokenCache(clock);
  }

  /** An access token for the account, from the cache when it is still good for five minutes. */
  async accessToken(account: ServiceAccount): Promise<string> {
    return this.cache.get(accountId(account), () => this.exchange(account));
  }

  /** Forgets an account's token (e.g. after the API refused it), so the next call fetches one. */
  forget(account: Pick<ServiceAccount, 'client_email' | 'private_key_id'>): void {
    this.cache.forget(accountId(account));
  }

  private async exchange(account: ServiceAccount): Promise<CachedToken> {
    const startedAt = this.clock();
    const assertion = await signServiceAccountJwt(account, Math.floor(startedAt / 1000));
    return exchangeToken(
      this.post,
      account.token_uri,
      { grant_type: JWT_BEARER_GRANT, assertion },
      {
        name: 'the service-account token endpoint',
        refusal: endpointFailure,
        noToken: () => 'the service-account token endpoint answered without an access_token',
      },
      startedAt,
    );
  }
}
