import { z } from 'zod';
import type { Role, UserStatus } from './enums.js';

const BCRYPT_MAX_BYTES = 72;

export const usernameField = z
  .string('username is required')
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(12, 'username must be at most 12 characters');

export const passwordField = z
  .string('password is required')
  .min(8, 'password must be at least 8 characters')
  .max(64, 'password must be at most 64 characters')
  .refine((value) => new TextEncoder().encode(value).length <= BCRYPT_MAX_BYTES, 'password is too long');

export const displayNameField = z.string().trim().max(20, 'display_name must be at most 20 characters');
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
});
export type SelfUpdateBody = z.infer<typeof selfUpdateBody>;

export const adminCreateUserBody = z.object({
  username: usernameField,
  password: passwordField,
  display_name: displayNameField.optional(),
  group: groupSymbolField.optional(),
});
export type AdminCreateUserBody = z.infer<typeof adminCreateUserBody>;

export const adminUpdateUserBody = z.object({
  id: z.number('id is required').int().positive('id must be positive'),
  username: usernameField.optional(),
  display_name: displayNameField.optional(),
  password: optionalPassword,
  email: z.union([z.literal(''), emailField]).optional(),
  group: groupSymbolField.optional(),
});
export type AdminUpdateUserBody = z.infer<typeof adminUpdateUserBody>;

export const manageActions = ['disable', 'enable', 'delete', 'promote', 'demote'] as const;
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
    .refine((value) => Math.abs(value) <= Number.MAX_SAFE_INTEGER / 2, 'quota is too large'),
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
  inviter_id: number;
  github_id: string;
  wechat_id: string;
  lark_id: string;
  oidc_id: string;
  telegram_id: number;
  has_access_token: boolean;
  created_time: number;
  last_login_time: number;
  last_login_ip: string;
}

/** The smaller object a login returns. */
export type LoginUserView = Pick<UserView, 'id' | 'username' | 'display_name' | 'role' | 'status' | 'avatar_url'>;
