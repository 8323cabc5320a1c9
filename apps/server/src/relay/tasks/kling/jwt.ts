import { SignJWT } from 'jose';

/**
 * Kling's API authentication: a channel key `accessKey|secretKey` becomes a short-lived HS256 JWT
 * (`iss` = the access key, `exp` in 30 minutes, `nbf` a little in the past for clock skew), sent as
 * `Authorization: Bearer <jwt>`. A key without `|` is taken as a ready token. Signed with jose, as
 * every other token the server makes (providers/zhipu, providers/vertex).
 */

const LIFETIME_SECONDS = 1800;
const SKEW_SECONDS = 5;

export function signKlingJwt(
  accessKey: string,
  secretKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT()
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(accessKey)
    .setExpirationTime(nowSeconds + LIFETIME_SECONDS)
    .setNotBefore(nowSeconds - SKEW_SECONDS)
    .sign(new TextEncoder().encode(secretKey));
}

/** The Authorization header for a channel key. */
export async function klingAuthorization(key: string): Promise<string> {
  const separator = key.indexOf('|');
  if (separator < 0) return `Bearer ${key}`;
  return `Bearer ${await signKlingJwt(key.slice(0, separator).trim(), key.slice(separator + 1).trim())}`;
}
