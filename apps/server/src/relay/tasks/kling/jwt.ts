import { createHmac } from 'node:crypto';

/**
 * Kling's API authentication: a channel key `accessKey|secretKey` becomes a short-lived HS256 JWT
 * (`iss` = the access key, `exp` in 30 minutes, `nbf` a little in the past for clock skew), sent as
 * `Authorization: Bearer <jwt>`. A key without `|` is taken as a ready token.
 */

const LIFETIME_SECONDS = 1800;
const SKEW_SECONDS = 5;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

export function signKlingJwt(accessKey: string, secretKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ iss: accessKey, exp: nowSeconds + LIFETIME_SECONDS, nbf: nowSeconds - SKEW_SECONDS }),
  );
  const signature = createHmac('sha256', secretKey).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The Authorization header for a channel key. */
export function klingAuthorization(key: string): string {
  const separator = key.indexOf('|');
  if (separator < 0) return `Bearer ${key}`;
  return `Bearer ${signKlingJwt(key.slice(0, separator).trim(), key.slice(separator + 1).trim())}`;
}
