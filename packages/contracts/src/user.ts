import { z } from 'zod';
import { type Budget, type BudgetWindowView, budgetListSchema } from './budget.js';
import type { Role, UserStatus } from './enums.js';
import { MAX_QUOTA } from './quota.js';

const BCRYPT_MAX_BYTES = 72;

/** Columns the admin user list (`GET /api/user/`) may be ordered by. */
export const USER_SORT_FIELDS = [
  'id',
  'username',
  'role',
  'status',
  'quota',
  'used_quota',
  'request_count',
  'created_time',
  'last_login_time',
  'last_login_ip',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Longest password accepted anywhere (registration, profile, admin edits). */
export const PASSWORD_MAX_LENGTH = 64;

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 12;
export const PASSWORD_MIN_LENGTH = 8;
export const DISPLAY_NAME_MAX_LENGTH = 20;

export const usernameField = z
  .string('username is required')
  .trim()
  .min(USERNAME_MIN_LENGTH, `username must be at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `username must be at most ${USERNAME_MAX_LENGTH} characters`);

export const passwordField = z
  .string('password is required')
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((value) => new TextEncoder().encode(value).length <= BCRYPT_MAX_BYTES, 'password is too long');

export const displayNameField = z
  .string()
  .trim()
  .max(DISPLAY_NAME_MAX_LENGTH, `display_name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`);
export const emailField = z.email('email is not a valid address').max(50, 'email must be at most 50 characters');
export const groupSymbolField = z
  .string()
  .trim()
  .min(1, 'group is required')
  .max(50, 'group must be at most 50 characters');

/** An optional password: empty string means "leave unchanged". */
const optionalPassword = z
  .union([z.literal(''), passwordField])
  .optional()
  .transform((value) => (value ? value : undefined));

export const registerBody = z.object({
  username: usernameField,
  password: passwordField,
  email: z.union([z.literal(''), emailField]).optional(),
  verification_code: z.string().trim().max(32).optional(),
  aff_code: z.string().trim().max(32).optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  username: z.string('username is required').trim().min(1, 'username is required').max(64),
  password: z.string('password is required').min(1, 'password is required').max(128),
});
export type LoginBody = z.infer<typeof loginBody>;

export const selfUpdateBody = z.object({
  display_name: displayNameField.optional(),
  password: optionalPassword,
  /** The current password; required when `password` sets a new one. */
  original_password: z.string('original_password must be a string').max(128).optional(),
  /** With a new password: passkeys to remove in the same step, `true` for all of them. */
  remove_passkeys: z
    .union(
      [
        z.literal(true),
        z.array(z.number().int().positive(), 'remove_passkeys: true or a list of passkey ids').max(100),
      ],
      'remove_passkeys: true or a list of passkey ids',
    )
    .optional(),
});
export type SelfUpdateBody = z.infer<typeof selfUpdateBody>;

export const adminCreateUserBody = z.object({
  username: usernameField,
  password: passwordField,
  display_name: displayNameField.optional(),
  group: groupSymbolField.optional(),
  budgets: budgetListSchema.optional(),
});
export type AdminCreateUserBody = z.infer<typeof adminCreateUserBody>;

export const adminUpdateUserBody = z.object({
  id: z.number('id is required').int().positive('id must be positive'),
  username: usernameField.optional(),
  display_name: displayNameField.optional(),
  password: optionalPassword,
  email: z.union([z.literal(''), emailField]).optional(),
  group: groupSymbolField.optional(),
  /** The user's own windows (issue 33); left out: unchanged. */
  budgets: budgetListSchema.optional(),
});
export type AdminUpdateUserBody = z.infer<typeof adminUpdateUserBody>;

/** `set_reliable` makes a user reliable (role 3); `demote` takes them back to common. */
export const manageActions = ['disable', 'enable', 'delete', 'promote', 'demote', 'set_reliable'] as const;
export type ManageAction = (typeof manageActions)[number];

export const manageUserBody = z.object({
  username: z.string('username is required').trim().min(1, 'username is required'),
  action: z.enum(manageActions, `action must be one of: ${manageActions.join(', ')}`),
});
export type ManageUserBody = z.infer<typeof manageUserBody>;

export const quotaChangeBody = z.object({
  quota: z
    .number('quota must be a number')
    .int('quota must be an integer')
    .refine((value) => value !== 0, 'quota must not be 0')
    .refine((value) => Math.abs(value) <= MAX_QUOTA, `quota must be between -${MAX_QUOTA} and ${MAX_QUOTA}`),
  remark: z.string().trim().max(200, 'remark must be at most 200 characters').optional(),
});
export type QuotaChangeBody = z.infer<typeof quotaChangeBody>;

/** What the API returns for a user (never the password hash or access-token digest). */
export interface UserView {
  id: number;
  username: string;
  display_name: string;
  role: Role | number;
  status: UserStatus | number;
  email: string;
  avatar_url: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code: string;
  /** Invitees registered with this user's invite code. */
  aff_count: number;
  /** Invite reward quota earned; rewards are paid straight into `quota`, so nothing waits for a transfer. */
  aff_quota: number;
  /** All-time invite reward quota. */
  aff_history_quota: number;
  inviter_id: number;
  /** GitHub login name as bound (the reference's `github_id`). */
  github_id: string;
  /** Numeric GitHub account id, which survives a renamed login; 0 when not bound. */
  github_id_new: number;
  wechat_id: string;
  lark_id: string;
  oidc_id: string;
  telegram_id: number;
  has_access_token: boolean;
  /** The password was generated by the server (first start, reset): the console asks for a new one. */
  password_change_required: boolean;
  created_time: number;
  last_login_time: number;
  last_login_ip: string;
  /** Allowances per window (issue 33), beside those of the user's group. */
  budgets: Budget[];
  /** The user's windows (own and group's) with current use; only on GET /api/user/:id and /api/user/self. */
  budget_windows?: BudgetWindowView[];
}

/** The smaller object a login returns. */
export type LoginUserView = Pick<
  UserView,
  'id' | 'username' | 'display_name' | 'role' | 'status' | 'avatar_url' | 'password_change_required'
>;
