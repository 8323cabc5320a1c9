import { z } from 'zod';
import { type Budget, budgetListSchema, type GroupBudgetWindowView } from './budget.js';
import { BALANCING_STRATEGIES, type BalancingStrategy } from './channelHealth.js';
import { type FallbackMap, fallbackMapSchema } from './fallbacks.js';

/** Columns the user group list (`GET /api/user_group/`) may be ordered by. */
export const USER_GROUP_SORT_FIELDS = ['id', 'name', 'symbol', 'enable', 'ratio', 'api_rate'] as const;
export type UserGroupSortField = (typeof USER_GROUP_SORT_FIELDS)[number];

const groupFields = {
  name: z.string('name is required').trim().min(1, 'name is required').max(50, 'name must be at most 50 characters'),
  ratio: z.number('ratio must be a number').min(0, 'ratio must be at least 0').max(1_000_000, 'ratio is too large'),
  api_rate: z
    .number('api_rate must be a number')
    .int('api_rate must be an integer')
    .min(0, 'api_rate must be at least 0')
    .max(100_000_000, 'api_rate is too large'),
  /** Tokens per minute for each member (prompt counted before the call, settled with real usage); 0 = none. */
  tpm: z
    .number('tpm must be a number')
    .int('tpm must be an integer')
    .min(0, 'tpm must be at least 0')
    .max(1_000_000_000, 'tpm is too large')
    .default(0),
  /** Allowances per window applying to each member on its own (issue 33). */
  budgets: budgetListSchema.optional().transform((budgets) => budgets ?? []),
  /** Models tried when every channel of the requested one failed (issue 34). */
  fallbacks: fallbackMapSchema,
  /** Requests of one conversation stay on one channel while it works (issue 34). */
  cache_affinity: z.boolean('cache_affinity must be true or false').default(true),
  public: z.boolean('public must be true or false').default(false),
  /**
   * How the group's requests choose among the channels of one priority tier (issue 34). Optional
   * on update: a console or script that does not know it keeps the stored one.
   */
  routing_strategy: z
    .enum(BALANCING_STRATEGIES, `routing_strategy must be one of ${BALANCING_STRATEGIES.join(', ')}`)
    .optional(),
  promotion: z.boolean('promotion must be true or false').default(false),
  min: z
    .number('min must be a number')
    .int('min must be a whole number of US dollars')
    .min(0, 'min must be at least 0')
    .max(1_000_000_000, 'min is too large')
    .default(0),
  max: z
    .number('max must be a number')
    .int('max must be a whole number of US dollars')
    .min(0, 'max must be at least 0')
    .max(1_000_000_000, 'max is too large')
    .default(0),
};

export const userGroupSymbolField = z
  .string('symbol is required')
  .trim()
  .min(1, 'symbol is required')
  .max(50, 'symbol must be at most 50 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'symbol may contain only letters, digits, "_" and "-"');

/** A promotion group's upper bound (USD of cumulative top-up) is 0 for "none" or above its lower bound. */
const promotionRange = {
  check: (group: { promotion: boolean; min: number; max: number }) =>
    !group.promotion || group.max === 0 || group.max > group.min,
  issue: { path: ['max'], message: 'max must be 0 (no upper bound) or greater than min' },
};

export const createUserGroupBody = z
  .object({
    symbol: userGroupSymbolField,
    ...groupFields,
    api_rate: groupFields.api_rate.default(600),
    ratio: groupFields.ratio.default(1),
    routing_strategy: groupFields.routing_strategy.default('weighted'),
  })
  .refine(promotionRange.check, promotionRange.issue);
export type CreateUserGroupBody = z.infer<typeof createUserGroupBody>;

export const updateUserGroupBody = z
  .object({
    id: z.number('id is required').int().positive('id must be positive'),
    symbol: z.string().optional(),
    ...groupFields,
  })
  .refine(promotionRange.check, promotionRange.issue);
export type UpdateUserGroupBody = z.infer<typeof updateUserGroupBody>;

export interface UserGroupView {
  id: number;
  symbol: string;
  name: string;
  ratio: number;
  api_rate: number;
  tpm: number;
  budgets: Budget[];
  fallbacks: FallbackMap;
  cache_affinity: boolean;
  /** How the members stand in each window; only on GET /api/user_group/:id. */
  budget_windows?: GroupBudgetWindowView[];
  public: boolean;
  promotion: boolean;
  min: number;
  max: number;
  enable: boolean;
  routing_strategy: BalancingStrategy;
}
