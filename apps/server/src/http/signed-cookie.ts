import { Signer } from '@fastify/cookie';
import { isRecord, parseJson } from '@one-hub/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nowSeconds } from '../platform/clock.js';

export interface SignedCookieOptions {
  /** What the signature covers besides the value; defaults to `cookie:<name>`. */
  label?: string;
  sameSite?: 'strict' | 'lax';
  /** Whether the cookie set in answer to this request is Secure; by default, when it came over https. */
  secure?: (request: FastifyRequest) => boolean;
}

const overHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * A small tamper-proof cookie with its own expiry: a JSON payload, base64url, then a dot and its
 * HMAC-SHA256 signature made with @fastify/cookie's signer. We keep no session table, so sessions
 * and short-lived per-browser facts (an OAuth state) travel signed in a cookie. Each purpose signs
 * under its own label, so one cookie can never be replayed as another.
 *
 * The signer writes base64; the cookie carries the same bytes in base64url, as cookies signed
 * before this codec did, so those stay valid.
 */
export class SignedCookie<Payload extends object> {
  private readonly signer: Signer;
  private readonly label: string;
  private readonly sameSite: 'strict' | 'lax';
  private readonly secure: (request: FastifyRequest) => boolean;

  constructor(
    secret: string,
    readonly name: string,
    private readonly ttlSeconds: number,
    options: SignedCookieOptions = {},
  ) {
    this.signer = new Signer(secret, 'sha256');
    this.label = options.label ?? `cookie:${name}`;
    this.sameSite = options.sameSite ?? 'strict';
    this.secure = options.secure ?? overHttps;
  }

  write(reply: FastifyReply, payload: Payload): void {
    reply.setCookie(this.name, this.seal(payload), {
      path: '/',
      httpOnly: true,
      sameSite: this.sameSite,
      secure: this.secure(reply.request),
      maxAge: this.ttlSeconds,
    });
  }

  /** The payload of this request's cookie when it is validly signed and unexpired; null otherwise. */
  read(request: FastifyRequest): (Payload & { exp: number }) | null {
    return this.open(request.cookies[this.name]);
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, {
      path: '/',
      httpOnly: true,
      sameSite: this.sameSite,
      secure: this.secure(reply.request),
    });
  }

  /** The cookie value for `payload`, expiring `ttlSeconds` from now. */
  seal(payload: Payload): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: nowSeconds() + this.ttlSeconds })).toString('base64url');
    const signed = this.signer.sign(`${this.label}:${body}`);
    const signature = signed.slice(signed.lastIndexOf('.') + 1);
    return `${body}.${signature.replace(/\+/g, '-').replace(/\//g, '_')}`;
  }

  /** The payload of a cookie value when it is validly signed and unexpired; null otherwise. */
  open(value: string | undefined): (Payload & { exp: number }) | null {
    if (!value) return null;
    const dot = value.indexOf('.');
    if (dot <= 0) return null;
    const body = value.slice(0, dot);
    const signature = value
      .slice(dot + 1)
      .replace(/-/g, '+')
      .replace(/_/g, '/');
    if (!this.signer.unsign(`${this.label}:${body}.${signature}`).valid) return null;
    const payload = parseJson(Buffer.from(body, 'base64url').toString('utf8'));
    if (!isRecord(payload) || typeof payload.exp !== 'number' || payload.exp <= nowSeconds()) return null;
    return payload as Payload & { exp: number };
  }
}
