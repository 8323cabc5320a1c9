import { z } from 'zod';
import { emailField } from './user.js';

/** Sign-in and account-recovery inputs: e-mail codes, password reset, OAuth callbacks, unbinding. */

const requiredEmail = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z.string('email is required').min(1, 'email is required').pipe(emailField),
);

const requiredText = (field: string, max: number) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** `GET /api/verification` and `GET /api/reset_password`; `turnstile` is read by the Turnstile check. */
export const emailCodeQuery = z.object({ email: requiredEmail });
export type EmailCodeQuery = z.infer<typeof emailCodeQuery>;

/** `POST /api/user/reset`. */
export const passwordResetBody = z.object({
  email: requiredEmail,
  token: requiredText('token', 64),
  /** Also remove every passkey of the account (the answer lists the passkeys left). */
  remove_passkeys: z.boolean('remove_passkeys must be true or false').optional(),
});
export type PasswordResetBody = z.infer<typeof passwordResetBody>;

/** `GET /api/oauth/email/bind`. */
export const emailBindQuery = z.object({ email: requiredEmail, code: requiredText('code', 32) });
export type EmailBindQuery = z.infer<typeof emailBindQuery>;

/** OAuth and OIDC callbacks: `code` from the provider, `state` from `/api/oauth/state`, optional invite. */
export const oauthCallbackQuery = z.object({
  code: requiredText('code', 512),
  state: z.string().trim().max(64).optional(),
  aff: z.string().trim().max(32).optional(),
});
export type OAuthCallbackQuery = z.infer<typeof oauthCallbackQuery>;

/** `GET /api/oauth/wechat` and `/api/oauth/wechat/bind`: the code the WeChat server showed the user. */
export const wechatCodeQuery = z.object({ code: requiredText('code', 64) });
export type WeChatCodeQuery = z.infer<typeof wechatCodeQuery>;

export const bindingTypes = ['github', 'wechat', 'lark', 'oidc'] as const;
export type BindingType = (typeof bindingTypes)[number];

/** `POST /api/user/unbind`. */
export const unbindBody = z.object({
  type: z.enum(bindingTypes, `type must be one of: ${bindingTypes.join(', ')}`),
});
export type UnbindBody = z.infer<typeof unbindBody>;
