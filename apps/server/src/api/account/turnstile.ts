import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { OptionService } from '../option/service.js';
import { callJson, isObject } from './oauth/upstream.js';
import { SignedCookie } from './signed-cookie.js';

export const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** How long one solved challenge is remembered for this browser. */
const PASSED_TTL_SECONDS = 24 * 3600;

/**
 * Cloudflare Turnstile in front of registration and e-mail sending, when the administrator turns
 * it on. A solved challenge is remembered in a signed cookie, so the browser solves it once.
 */
export class TurnstileCheck {
  private readonly passed: SignedCookie<{ turnstile: true }>;

  constructor(
    private readonly options: OptionService,
    secret: string,
    private readonly verifyUrl = TURNSTILE_VERIFY_URL,
  ) {
    this.passed = new SignedCookie(secret, 'turnstile', PASSED_TTL_SECONDS);
  }

  /** Route pre-handler: passes when the check is off, already passed, or `?turnstile=` verifies. */
  readonly guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!this.options.getBoolean('TurnstileCheckEnabled')) return;
    if (this.passed.read(request)) return;
    const token = (request.query as Record<string, unknown> | undefined)?.turnstile;
    if (typeof token !== 'string' || !token.trim()) {
      throw AppError.badRequest('turnstile: the Turnstile token is missing; complete the challenge and try again');
    }
    if (!(await this.verify(token.trim(), request.ip))) {
      throw AppError.forbidden('turnstile: the Turnstile check failed; complete the challenge again');
    }
    this.passed.write(reply, { turnstile: true });
  };

  private async verify(token: string, remoteIp: string): Promise<boolean> {
    const answer = await callJson(
      this.verifyUrl,
      { form: { secret: this.options.get('TurnstileSecretKey'), response: token, remoteip: remoteIp } },
      'Cloudflare Turnstile',
    );
    return isObject(answer.body) && answer.body.success === true;
  }
}
