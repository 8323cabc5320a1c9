import { emailCodeQuery, PASSWORD_MAX_LENGTH, type RegisterBody, registerBody } from '@one-hub/contracts';

/** Seconds before another e-mail (code or reset link) may be asked for. */
export const RESEND_SECONDS = 60;

export interface RegisterFormValues {
  username: string;
  password: string;
  confirm: string;
  email: string;
  verification_code: string;
}

export type RegisterField = keyof RegisterFormValues;

/** A translation key in the auth namespace plus its values. */
export interface FieldMessage {
  key: string;
  values?: Record<string, number>;
}

export type FieldMessages<Field extends string> = Partial<Record<Field, FieldMessage>>;

interface Issue {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
}

function limit(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** The message for one issue of a field, or null for fields the form does not show. */
function messageFor(field: string, issue: Issue, value: string): FieldMessage | null {
  const empty = value.trim() === '';
  switch (field) {
    case 'username':
      if (empty) return { key: 'validation.usernameRequired' };
      if (issue.code === 'too_big') return { key: 'validation.usernameTooLong', values: { max: limit(issue.maximum) } };
      return { key: 'validation.usernameTooShort', values: { min: limit(issue.minimum) } };
    case 'password':
      if (value === '') return { key: 'validation.passwordRequired' };
      if (issue.code === 'too_small') {
        return { key: 'validation.passwordTooShort', values: { min: limit(issue.minimum) } };
      }
      // too_big, or more bytes than bcrypt reads: either way the shared maximum is the rule.
      return { key: 'validation.passwordTooLong', values: { max: PASSWORD_MAX_LENGTH } };
    case 'confirm':
      return { key: 'validation.passwordMismatch' };
    case 'email':
      return { key: empty ? 'validation.emailRequired' : 'validation.emailInvalid' };
    case 'verification_code':
      return { key: empty ? 'validation.codeRequired' : 'validation.codeInvalid' };
    default:
      return null;
  }
}

/** Turns schema issues into one translated message per field (the first issue wins). */
export function fieldMessages<Field extends string>(
  issues: ReadonlyArray<Issue>,
  values: Record<Field, string>,
): FieldMessages<Field> {
  const messages: FieldMessages<Field> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !(field in values)) continue;
    const typed = field as Field;
    if (messages[typed]) continue;
    const message = messageFor(field, issue, values[typed]);
    if (message) messages[typed] = message;
  }
  return messages;
}

/** Checks an address before a code or a reset link is mailed to it. */
export function emailMessage(email: string): FieldMessage | null {
  const parsed = emailCodeQuery.safeParse({ email });
  if (parsed.success) return null;
  return fieldMessages(parsed.error.issues, { email }).email ?? { key: 'validation.emailInvalid' };
}

export type RegisterCheck = { ok: true; body: RegisterBody } | { ok: false; messages: FieldMessages<RegisterField> };

/**
 * The server's registration schema, plus what only the form knows: the confirmation, and e-mail and
 * code being required when the site verifies addresses (spec §5).
 */
export function checkRegisterForm(
  values: RegisterFormValues,
  options: { emailVerification: boolean; affCode?: string | null },
): RegisterCheck {
  const { emailVerification, affCode } = options;
  const parsed = registerBody.safeParse({
    username: values.username,
    password: values.password,
    ...(emailVerification ? { email: values.email.trim(), verification_code: values.verification_code } : {}),
    ...(affCode ? { aff_code: affCode } : {}),
  });
  const messages: FieldMessages<RegisterField> = parsed.success ? {} : fieldMessages(parsed.error.issues, values);
  if (values.confirm !== values.password) messages.confirm = { key: 'validation.passwordMismatch' };
  if (emailVerification) {
    if (!values.email.trim()) messages.email = { key: 'validation.emailRequired' };
    if (!values.verification_code.trim()) messages.verification_code = { key: 'validation.codeRequired' };
  }
  if (!parsed.success || Object.keys(messages).length > 0) return { ok: false, messages };
  return { ok: true, body: parsed.data };
}
