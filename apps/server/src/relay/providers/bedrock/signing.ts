import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * Bedrock credentials from a channel key, and the request headers that authenticate a call:
 * AWS Signature Version 4 (computed by `@smithy/signature-v4`, the AWS SDK's own signer) for an
 * access key, or `Authorization: Bearer` for a Bedrock API key.
 */

export const KEY_FORMAT = 'Region|AccessKeyId|SecretAccessKey[|SessionToken] or Region|APIKey';

/** The signing name of the bedrock-runtime endpoints. */
export const SIGNING_SERVICE = 'bedrock';

export type BedrockCredentials =
  | { kind: 'sigv4'; region: string; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'bearer'; region: string; token: string };

// us-east-1, eu-central-2, ap-southeast-4, us-gov-west-1, ca-west-1, mx-central-1…
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;

/** Parses `Region|AccessKeyId|SecretAccessKey[|SessionToken]` or `Region|APIKey`; never echoes secrets. */
export function parseBedrockKey(key: string): BedrockCredentials {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  const fail = (why: string): never => {
    throw new Error(`the Bedrock channel key is not valid (${why}): expected ${KEY_FORMAT}`);
  };
  if (parts.length < 2 || parts.length > 4) fail(`${parts.length} part${parts.length === 1 ? '' : 's'}`);
  if (parts.some((part) => part === '')) fail('an empty part');
  const [region = '', second = '', third, fourth] = parts;
  if (!REGION.test(region)) fail('the first part is not an AWS region such as us-east-1');
  if (parts.length === 2) return { kind: 'bearer', region, token: second };
  if (third === undefined) return fail('no secret access key');
  return {
    kind: 'sigv4',
    region,
    accessKeyId: second,
    secretAccessKey: third,
    ...(fourth ? { sessionToken: fourth } : {}),
  };
}

/** The default endpoint of a region. */
export function runtimeEndpoint(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** The SigV4 signer used for every call (and by the test mock to check signatures). */
export function createSigner(
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  region: string,
  options: { service?: string; applyChecksum?: boolean } = {},
): SignatureV4 {
  return new SignatureV4({
    service: options.service ?? SIGNING_SERVICE,
    region,
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
    sha256: Hash.bind(null, 'sha256'),
    // Every AWS service but S3 wants the path escaped again in the canonical request:
    // `/model/anthropic.claude…%3A0/invoke` is signed as `…%253A0…`.
    uriEscapePath: true,
    applyChecksum: options.applyChecksum ?? true,
  });
}

/**
 * The headers of a POST to `url` carrying exactly `body`, authenticated with `credentials`.
 * `headers` (content type, accept…) are signed too. `host` is signed with the host actually
 * called but left out of the result: the HTTP client sends it from the URL.
 */
export async function authenticate(
  credentials: BedrockCredentials,
  url: URL,
  body: Buffer,
  headers: Record<string, string>,
  signingDate: Date,
): Promise<Record<string, string>> {
  if (credentials.kind === 'bearer') return { ...headers, authorization: `Bearer ${credentials.token}` };
  const signer = createSigner(credentials, credentials.region);
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: {},
      headers: { ...headers, host: url.host },
      body,
    },
    { signingDate },
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    if (name.toLowerCase() !== 'host' && typeof value === 'string') out[name.toLowerCase()] = value;
  }
  return out;
}
