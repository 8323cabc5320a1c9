import { randomString, sha256Hex } from '../platform/crypto.js';

/** What clients put in front of a key; the API hands keys out without it, as the reference does. */
export const TOKEN_KEY_PREFIX = 'sk-';
const KEY_BODY_LENGTH = 48;

/** A new API key body: 48 random letters and digits (about 285 bits); clients send it as `sk-<body>`. */
export function generateTokenKey(): string {
  return randomString(KEY_BODY_LENGTH);
}

/** The key without its `sk-` prefix, as clients may send either form. */
export function tokenKeyBody(key: string): string {
  return key.startsWith(TOKEN_KEY_PREFIX) ? key.slice(TOKEN_KEY_PREFIX.length) : key;
}

/**
 * What the database stores and requests are looked up by. Takes the body WITHOUT `sk-` (the relay
 * strips `Bearer `, `sk-` and any `#…` suffix first), so both spellings of a key find the same row.
 */
export function hashTokenKey(body: string): string {
  return sha256Hex(body);
}
