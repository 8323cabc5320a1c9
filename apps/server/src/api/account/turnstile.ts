import { isRecord } from '@one-hub/contracts';
import type { FastifyRequest } from 'fastify';
import type { Cache } from '../../platform/cache/index.js';
import { sha256Hex } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import type { OptionService } from '../option/service.js';
import { callJson } from './oauth/upstream.js';

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/**
 * How far one solved challenge reaches: the action it was solved for and one more with the same
 * token (the reference's console sends one token to ask for an e-mail code and then to register
 * with it), within a few minutes. Our console solves a new challenge for each action.
 */
export const TURNSTILE_PASS = { uses: 2, ttlSeconds: 300 };

/**
 * Cloudflare Turnstile in front of registration and e-mail sending, when the administrator turns
 * it on. Every guarded request brings a token (`?turnstile=`); a new one is checked with
 * Cloudflare, which accepts a token once, and is then good for TURNSTILE_PASS, never a session.
 */
export class TurnstileCheck {
  constructor(
    private readonly options: OptionService,
    private readonly cache: Cache,
    private readonly verifyUrl = TURNSTILE_VERIFY_URL,
  ) {}

  /** Route pre-handler: passes when the check is off or `?turnstile=` verifies now. */
  readonly guard = async (request: FastifyRequest): Promise<void> => {
    if (!this.options.getBoolean('TurnstileCheckEnabled')) return;
    const token = (request.query as Record<string, unknown> | undefined)?.turnstile;
    if (typeof token !== 'string' || !token.trim()) {
      throw AppError.badRequest('turnstile: the Turnstile token is missing; complete the challenge and try again');
    }
    if (!(await this.admits(token.trim(), request.ip))) {
      throw AppError.forbidden('turnstile: the Turnstile check failed; complete the challenge again');
    }
  };

  /** A token seen before counts one more use of its pass; a new one must satisfy Cloudflare. */
  private async admits(token: string, remoteIp: string): Promise<boolean> {
    const key = `turnstile-pass:${sha256Hex(token)}`;
    if ((await this.cache.get(key)) !== undefined) {
      return (await this.cache.increment(key, TURNSTILE_PASS.ttlSeconds)) <= TURNSTILE_PASS.uses;
    }
    if (!(await this.verify(token, remoteIp))) return false;
    await this.cache.increment(key, TURNSTILE_PASS.ttlSeconds);
    return true;
  }

  private async verify(token: string, remoteIp: string): Promise<boolean> {
    const answer = await callJson(
      this.verifyUrl,
      { form: { secret: this.options.get('TurnstileSecretKey'), response: token, remoteip: remoteIp } },
      'Cloudflare Turnstile',
    );
    return isRecord(answer.body) && answer.body.success === true;
  }
}
