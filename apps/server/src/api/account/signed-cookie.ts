import type { FastifyReply, FastifyRequest } from 'fastify';
import { nowSeconds } from '../../platform/clock.js';
import { hmacBase64Url, safeEqual } from '../../platform/crypto.js';

/**
 * A small tamper-proof cookie with its own expiry. We keep no session table, so short-lived
 * per-browser facts (an OAuth state, a passed Turnstile check) travel signed in a cookie. Each
 * purpose signs with its own label, so one cookie can never be replayed as another.
 */
export class SignedCookie<Payload extends object> {
  constructor(
    private readonly secret: string,
    readonly name: string,
    private readonly ttlSeconds: number,
    private readonly sameSite: 'strict' | 'lax' = 'strict',
  ) {}

  write(reply: FastifyReply, payload: Payload): void {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: nowSeconds() + this.ttlSeconds })).toString('base64url');
    reply.setCookie(this.name, `${body}.${this.sign(body)}`, {
      path: '/',
      httpOnly: true,
      sameSite: this.sameSite,
      secure: 'auto',
      maxAge: this.ttlSeconds,
    });
  }

  /** The payload of a valid, unexpired cookie; null otherwise. */
  read(request: FastifyRequest): Payload | null {
    const value = request.cookies[this.name];
    if (!value) return null;
    const [body, signature] = value.split('.');
    if (!body || !signature || !safeEqual(signature, this.sign(body))) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload & { exp?: unknown };
      return typeof payload.exp === 'number' && payload.exp > nowSeconds() ? payload : null;
    } catch {
      return null;
    }
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, { path: '/', httpOnly: true, sameSite: this.sameSite });
  }

  private sign(body: string): string {
    return hmacBase64Url(this.secret, `cookie:${this.name}:${body}`);
  }
}
