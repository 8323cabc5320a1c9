import { generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AdapterContext, ChatChunk, Json, StreamDecoder } from '../../../src/relay/providers/types.js';

/** Test-only helpers of the Vertex adapter: fixtures, a test key pair, JWT checks. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson(name: string): Json {
  return JSON.parse(fixture(name).toString('utf8')) as Json;
}

export interface TestKeyPair {
  privateKey: string;
  publicKey: string;
}

/** A fresh RSA key pair (PKCS#8 private key, as Google's key files hold it). */
export function testKeyPair(): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

/** The fixture key file with the test private key (and any field replaced). */
export function serviceAccountKey(privateKey: string, overrides: Json = {}): string {
  return JSON.stringify({ ...fixtureJson('service-account.json'), private_key: privateKey, ...overrides });
}

export function context(key: string, overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key,
    baseUrl: '',
    upstreamModel: 'gemini-2.5-flash',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_750_000_000,
    responseId: 'chatcmpl-vertex1',
    ...overrides,
  };
}

export interface VerifiedJwt {
  header: Json;
  claims: Json;
}

/** Checks an RS256 JWT's signature with `publicKey`; its header and claims, or an Error saying why not. */
export function verifyJwt(jwt: string, publicKey: string): VerifiedJwt {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new Error('a JWT has three parts');
  const [header, claims, signature] = parts as [string, string, string];
  const decoded = {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Json,
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Json,
  };
  if (decoded.header.alg !== 'RS256') throw new Error(`alg is ${String(decoded.header.alg)}`);
  const good = verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'));
  if (!good) throw new Error('Invalid JWT Signature.');
  return decoded;
}

/** Feeds bytes to a decoder in slices of `size` bytes (cutting through UTF-8 characters), then ends it. */
export function decodeInSlices(decoder: StreamDecoder, bytes: Buffer, size = bytes.length): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  }
  chunks.push(...decoder.end());
  return chunks;
}

/** The text, reasoning and tool-call arguments a list of chunks adds up to. */
export function gather(chunks: ChatChunk[]): {
  content: string;
  reasoning: string;
  calls: Array<{ id?: string; name?: string; arguments: string }>;
  finish: Array<string | null>;
} {
  let content = '';
  let reasoning = '';
  const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
  const finish: Array<string | null> = [];
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      const { delta } = choice;
      if (typeof delta.content === 'string') content += delta.content;
      if (typeof delta.reasoning_content === 'string') reasoning += delta.reasoning_content;
      for (const call of delta.tool_calls ?? []) {
        const entry = calls[call.index] ?? { arguments: '' };
        calls[call.index] = entry;
        if (call.id) entry.id = call.id;
        if (call.function.name) entry.name = call.function.name;
        entry.arguments += call.function.arguments ?? '';
      }
      if (choice.finish_reason) finish.push(choice.finish_reason);
    }
  }
  return { content, reasoning, calls, finish };
}
