import { createHash, createHmac } from 'node:crypto';

/**
 * Tencent Cloud API 3.0 request signing (TC3-HMAC-SHA256), as Tencent documents it ("Signature
 * v3"): a canonical request over the method, `/`, the empty query of a POST, the signed headers
 * (names and values lower-cased and trimmed, sorted by name) and the body's SHA-256; a string to
 * sign with the timestamp and the credential scope `<UTC date>/<service>/tc3_request`; a key
 * derived from `"TC3" + SecretKey` through the date, the service and `tc3_request`.
 */

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  /** The product's service name (`hunyuan`, `cvm`…), as in its host name. */
  service: string;
  /** The headers to sign, `host` and `content-type` among them, exactly as they are sent. */
  headers: Record<string, string>;
  /** The body as sent. */
  payload: string;
  /** Unix seconds; also the `X-TC-Timestamp` header. */
  timestamp: number;
}

const ALGORITHM = 'TC3-HMAC-SHA256';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

/** The UTC date of a timestamp, `YYYY-MM-DD` (Tencent checks it against `X-TC-Timestamp`). */
export const tc3Date = (timestamp: number): string => new Date(timestamp * 1000).toISOString().slice(0, 10);

/** The pieces of a signature, for tests that follow Tencent's worked example step by step. */
export function tc3Signature(request: Tc3Request) {
  const names = Object.keys(request.headers)
    .map((name) => name.toLowerCase())
    .sort();
  const lowered = new Map(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value.trim().toLowerCase()]),
  );
  const canonicalHeaders = names.map((name) => `${name}:${lowered.get(name)}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(request.payload)].join('\n');
  const date = tc3Date(request.timestamp);
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = [ALGORITHM, String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${request.secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return {
    canonicalRequest,
    hashedCanonicalRequest: sha256Hex(canonicalRequest),
    stringToSign,
    signedHeaders,
    signature,
    scope,
  };
}

/** The `Authorization` header of a signed request. */
export function tc3Authorization(request: Tc3Request): string {
  const { scope, signedHeaders, signature } = tc3Signature(request);
  return `${ALGORITHM} Credential=${request.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
