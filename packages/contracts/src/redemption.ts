import { z } from 'zod';
import { keywordPageQuery } from './paging.js';
import { quotaAmountField } from './quota.js';

/** Statuses of a redemption code, numbered as in the reference system's `redemptions.status`. */
export const RedemptionStatus = {
  /** Not redeemed yet and usable. */
  enabled: 1,
  disabled: 2,
  /** Set by the system when a user redeems the code; never chosen by a person. */
  redeemed: 3,
} as const;
export type RedemptionStatus = (typeof RedemptionStatus)[keyof typeof RedemptionStatus];

export const REDEMPTION_NAME_MAX_LENGTH = 20;
export const REDEMPTION_BATCH_MAX = 100;

/** Columns the redemption list may be ordered by; `id` is always the last tie-breaker. */
export const REDEMPTION_SORT_FIELDS = ['id', 'name', 'status', 'quota', 'created_time', 'redeemed_time'] as const;

const STATUS_FILTER_MESSAGE = 'status must be 0 (all), 1 (unredeemed), 2 (disabled) or 3 (redeemed)';

/** `keyword` matches an id exactly or a name by prefix; `status` (0 or absent = any) keeps one status. */
export const redemptionListQuery = keywordPageQuery.extend({
  status: z.coerce
    .number(STATUS_FILTER_MESSAGE)
    .int(STATUS_FILTER_MESSAGE)
    .min(0, STATUS_FILTER_MESSAGE)
    .max(RedemptionStatus.redeemed, STATUS_FILTER_MESSAGE)
    .optional(),
});
export type RedemptionListQuery = z.infer<typeof redemptionListQuery>;

const nameField = z
  .string('name is required')
  .trim()
  .min(1, 'name is required')
  .max(REDEMPTION_NAME_MAX_LENGTH, `name must be at most ${REDEMPTION_NAME_MAX_LENGTH} characters`);

const quotaField = quotaAmountField('quota');

const idField = z.number('id is required').int('id must be an integer').positive('id must be positive');

export const createRedemptionBody = z.object({
  name: nameField,
  quota: quotaField,
  count: z
    .number('count must be a number')
    .int('count must be an integer')
    .min(1, 'count must be at least 1')
    .max(REDEMPTION_BATCH_MAX, `count must be at most ${REDEMPTION_BATCH_MAX}`),
});
export type CreateRedemptionBody = z.infer<typeof createRedemptionBody>;

/** Fields left out stay as they are. */
export const updateRedemptionBody = z.object({
  id: idField,
  name: nameField.optional(),
  quota: quotaField.optional(),
});
export type UpdateRedemptionBody = z.infer<typeof updateRedemptionBody>;

/** With `?status_only=1`: only enabling and disabling; "redeemed" is the system's verdict. */
export const redemptionStatusBody = z.object({
  id: idField,
  status: z
    .number('status must be a number')
    .int('status must be an integer')
    .refine((value) => value === RedemptionStatus.enabled || value === RedemptionStatus.disabled, {
      error: 'status must be 1 (enabled) or 2 (disabled); 3 (redeemed) is set by redeeming the code',
    })
    .transform((value) => value as RedemptionStatus),
});
export type RedemptionStatusBody = z.infer<typeof redemptionStatusBody>;

export const redemptionUpdateQuery = z.object({
  status_only: z
    .string()
    .optional()
    .transform((value) => value === '1' || value?.toLowerCase() === 'true'),
});

/** `POST /api/user/topup`. Codes are 32 hex characters; a little slack so a typo gets "unknown", not a 400. */
export const topUpBody = z.object({
  key: z.string('key is required').trim().min(1, 'key is required').max(64, 'key must be at most 64 characters'),
});
export type TopUpBody = z.infer<typeof topUpBody>;

export interface RedemptionView {
  id: number;
  /** The administrator who created the code. */
  user_id: number;
  /** The full code; only administrators ever see this view. */
  key: string;
  status: RedemptionStatus;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** Who redeemed it; 0 while unredeemed. */
  redeemed_user_id: number;
  /** The redeemer's username; '' while unredeemed or when that account is gone. */
  redeemed_username: string;
}
