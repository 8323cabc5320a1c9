import { randomString, sha256Hex } from '../../platform/crypto.js';

export const TOKEN_KEY_PREFIX = 'sk-';
const KEY_BODY_LENGTH = 48;

/** A new API key: `sk-` followed by 48 random letters and digits (about 285 bits). */
export function generateTokenKey(): string {
  return `${TOKEN_KEY_PREFIX}${randomString(KEY_BODY_LENGTH)}`;
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

/** `sk-AbCd…WxYz`: enough to recognise a key in a list, useless to anyone who reads it. */
export function maskTokenKey(key: string): string {
  const body = tokenKeyBody(key);
  if (body.length < 8) return `${TOKEN_KEY_PREFIX}…`;
  return `${TOKEN_KEY_PREFIX}${body.slice(0, 4)}…${body.slice(-4)}`;
}
