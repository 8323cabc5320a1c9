import { constants, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';

/**
 * Verification of an OpenID Connect ID token (a JWS in compact form) against the issuer's JWKS,
 * with node:crypto only. Asymmetric algorithms only: "none" and HMAC are refused, and a key is
 * used only with an algorithm of its own type, so a public key can never act as an HMAC secret.
 */

export class IdTokenError extends Error {}

/** The token names a key the JWKS does not hold; the issuer may have rotated its keys. */
export class UnknownSigningKeyError extends IdTokenError {}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  /** The nonce sent with the authorization request, when one was sent. */
  nonce?: string | undefined;
  nowSeconds: number;
}

export type IdTokenClaims = Record<string, unknown> & { sub: string };

interface Algorithm {
  hash: 'sha256' | 'sha384' | 'sha512';
  keyType: 'RSA' | 'EC';
  pss?: boolean;
}

const algorithms: Record<string, Algorithm> = {
  RS256: { hash: 'sha256', keyType: 'RSA' },
  RS384: { hash: 'sha384', keyType: 'RSA' },
  RS512: { hash: 'sha512', keyType: 'RSA' },
  PS256: { hash: 'sha256', keyType: 'RSA', pss: true },
  PS384: { hash: 'sha384', keyType: 'RSA', pss: true },
  PS512: { hash: 'sha512', keyType: 'RSA', pss: true },
  ES256: { hash: 'sha256', keyType: 'EC' },
  ES384: { hash: 'sha384', keyType: 'EC' },
  ES512: { hash: 'sha512', keyType: 'EC' },
};

/** Clock difference tolerated between us and the issuer. */
const LEEWAY_SECONDS = 60;

function decodePart(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new IdTokenError(`the ID token's ${what} is not a JSON object`);
}

function candidateKeys(keys: unknown[], header: Record<string, unknown>, algorithm: Algorithm): KeyObject[] {
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const matching = keys.filter((entry): entry is JsonWebKey & { kid?: string; use?: string } => {
    if (typeof entry !== 'object' || entry === null) return false;
    const key = entry as JsonWebKey & { kid?: string; use?: string };
    return key.kty === algorithm.keyType && (key.use === undefined || key.use === 'sig') && (!kid || key.kid === kid);
  });
  if (matching.length === 0)
    throw new UnknownSigningKeyError('the ID token is signed with a key the issuer does not list');
  return matching.flatMap((key) => {
    try {
      return [createPublicKey({ key, format: 'jwk' })];
    } catch {
      return []; // a malformed entry in the JWKS cannot have signed anything
    }
  });
}

function signatureMatches(key: KeyObject, algorithm: Algorithm, input: Buffer, signature: Buffer): boolean {
  if (algorithm.keyType === 'EC') return verify(algorithm.hash, input, { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (algorithm.pss) {
    return verify(
      algorithm.hash,
      input,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
      signature,
    );
  }
  return verify(algorithm.hash, input, key, signature);
}

function checkClaims(claims: Record<string, unknown>, expected: IdTokenExpectations): IdTokenClaims {
  if (claims.iss !== expected.issuer) throw new IdTokenError('the ID token was issued by another issuer');
  const audience = claims.aud;
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (!audiences.includes(expected.clientId)) throw new IdTokenError('the ID token is meant for another client');
  if (claims.azp !== undefined && claims.azp !== expected.clientId) {
    throw new IdTokenError('the ID token was issued to another client');
  }
  if (typeof claims.exp !== 'number' || claims.exp + LEEWAY_SECONDS <= expected.nowSeconds) {
    throw new IdTokenError('the ID token has expired');
  }
  if (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_SECONDS > expected.nowSeconds) {
    throw new IdTokenError('the ID token is not valid yet');
  }
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce) {
    throw new IdTokenError('the ID token does not carry the nonce of this sign-in');
  }
  if (typeof claims.sub !== 'string' || !claims.sub) throw new IdTokenError('the ID token names no subject');
  return claims as IdTokenClaims;
}

/** The token's claims once its signature and its iss, aud, azp, exp, nbf and nonce check out. */
export function verifyIdToken(token: string, jwks: unknown, expected: IdTokenExpectations): IdTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !part)) throw new IdTokenError('the ID token is not a signed JWT');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodePart(headerPart, 'header');
  const algorithm = typeof header.alg === 'string' ? algorithms[header.alg] : undefined;
  if (!algorithm) throw new IdTokenError(`the ID token's algorithm ${String(header.alg)} is not accepted`);
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new IdTokenError("the issuer's JWKS holds no keys");
  const input = Buffer.from(`${headerPart}.${payloadPart}`);
  const signature = Buffer.from(signaturePart, 'base64url');
  let verified = false;
  for (const key of candidateKeys(keys, header, algorithm)) {
    if (signatureMatches(key, algorithm, input, signature)) {
      verified = true;
      break;
    }
  }
  if (!verified) throw new IdTokenError("the ID token's signature does not match the issuer's keys");
  return checkClaims(decodePart(payloadPart, 'payload'), expected);
}
