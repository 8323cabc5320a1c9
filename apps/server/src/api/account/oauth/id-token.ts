import { isRecord } from '@one-hub/contracts';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';

/**
 * Verification of an OpenID Connect ID token (a JWS in compact form) against the issuer's JWKS,
 * with `jose`. Asymmetric algorithms only: "none" and HMAC are refused, and jose uses a JWKS key
 * only with an algorithm of its own type, so a public key can never act as an HMAC secret.
 */

export class IdTokenError extends Error {}

/** The token names a key the JWKS does not hold; the issuer may have rotated its keys. */
export class UnknownSigningKeyError extends IdTokenError {}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  /** The nonce of this sign-in: every sign-in has one, and a token without it is refused. */
  nonce: string;
  nowSeconds: number;
}

export type IdTokenClaims = Record<string, unknown> & { sub: string };

const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** Clock difference tolerated between us and the issuer. */
const LEEWAY_SECONDS = 60;

/** What a failed claim check means for the person signing in. */
const claimFailures: Record<string, string> = {
  iss: 'the ID token was issued by another issuer',
  aud: 'the ID token is meant for another client',
  exp: 'the ID token carries no expiry, so it counts as expired',
  nbf: 'the ID token is not valid yet',
  sub: 'the ID token names no subject',
};

/** jose's error → ours, in words that tell the operator what is wrong; never the token itself. */
function explain(error: unknown, token: string): IdTokenError {
  if (error instanceof IdTokenError) return error;
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new IdTokenError(`the ID token's algorithm ${String(headerOf(token).alg)} is not accepted`);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new UnknownSigningKeyError('the ID token is signed with a key the issuer does not list');
  }
  if (error instanceof errors.JWKSInvalid) return new IdTokenError("the issuer's JWKS holds no usable keys");
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new IdTokenError("the ID token's signature does not match the issuer's keys");
  }
  if (error instanceof errors.JWTExpired) return new IdTokenError('the ID token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new IdTokenError(claimFailures[error.claim] ?? `the ID token's ${error.claim} claim is not acceptable`);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new IdTokenError('the ID token is not a signed JWT whose header and payload are JSON objects');
  }
  // A key in the JWKS that the runtime cannot import, or one too weak for its algorithm.
  return new IdTokenError("the ID token could not be checked against the issuer's keys");
}

function headerOf(token: string): Record<string, unknown> {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return {};
  }
}

/**
 * A token without a key id, when the JWKS holds several keys of its type, is tried against each
 * (jose leaves that iteration to the caller).
 */
async function verifyWithAnyKey(token: string, jwks: unknown, options: JWTVerifyOptions): Promise<JWTPayload> {
  if (!isRecord(jwks) || !Array.isArray(jwks.keys)) throw new IdTokenError("the issuer's JWKS holds no keys");
  const keySet = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
  try {
    return (await jwtVerify(token, keySet, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (attempt) {
        if (!(attempt instanceof errors.JWSSignatureVerificationFailed)) throw attempt;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** The token's claims once its signature and its iss, aud, azp, exp, nbf and nonce check out. */
export async function verifyIdToken(
  token: string,
  jwks: unknown,
  expected: IdTokenExpectations,
): Promise<IdTokenClaims> {
  let claims: JWTPayload;
  try {
    claims = await verifyWithAnyKey(token, jwks, {
      algorithms: ACCEPTED_ALGORITHMS,
      issuer: expected.issuer,
      audience: expected.clientId,
      clockTolerance: LEEWAY_SECONDS,
      currentDate: new Date(expected.nowSeconds * 1000),
      requiredClaims: ['exp', 'sub'],
    });
  } catch (error) {
    throw explain(error, token);
  }
  if (claims.azp !== undefined && claims.azp !== expected.clientId) {
    throw new IdTokenError('the ID token was issued to another client');
  }
  if (!expected.nonce || claims.nonce !== expected.nonce) {
    throw new IdTokenError('the ID token does not carry the nonce of this sign-in');
  }
  if (typeof claims.sub !== 'string' || !claims.sub) throw new IdTokenError(claimFailures.sub);
  return claims as IdTokenClaims;
}
