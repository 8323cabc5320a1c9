import { NEVER_EXPIRES, TokenStatus } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';

/** The values that decide whether a token may be used, as they will be after an update. */
export interface TokenLimits {
  expiredTime: number;
  remainQuota: number;
  unlimitedQuota: boolean;
}

export function isExpired(limits: TokenLimits, now: number): boolean {
  return limits.expiredTime !== NEVER_EXPIRES && limits.expiredTime <= now;
}

export function isExhausted(limits: TokenLimits): boolean {
  return !limits.unlimitedQuota && limits.remainQuota <= 0;
}

/**
 * People choose only between enabled and disabled; expired and exhausted are the system's verdicts,
 * so they are accepted only when unchanged (a console sending the whole token back). Enabling is
 * refused while the token would still be expired or exhausted, judged on the values after the
 * update, so extending the expiry or adding quota and enabling can happen in one request.
 */
export function assertStatusChange(current: number, requested: TokenStatus, limits: TokenLimits, now: number): void {
  if (requested === current) return;
  if (requested === TokenStatus.expired || requested === TokenStatus.exhausted) {
    throw AppError.badRequest('status: only 1 (enabled) or 2 (disabled) can be chosen; 3 and 4 are set by the system');
  }
  if (requested !== TokenStatus.enabled) return;
  if (isExpired(limits, now)) {
    throw AppError.badRequest(
      'status: this token has expired; set expired_time to a future time, or -1 for never, before enabling it',
    );
  }
  if (isExhausted(limits)) {
    throw AppError.badRequest(
      'status: this token has no quota left; raise remain_quota or set unlimited_quota before enabling it',
    );
  }
}
