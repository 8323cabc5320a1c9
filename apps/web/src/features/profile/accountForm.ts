import { type SelfUpdateBody, selfUpdateBody } from '@one-hub/contracts';

export interface AccountFormValues {
  displayName: string;
  /** The current password; needed only to set a new one. */
  currentPassword: string;
  password: string;
  confirmPassword: string;
}

/** i18n keys (profile namespace) of the problems a field can have. */
export interface AccountFormErrors {
  displayName?: 'account.errors.displayNameTooLong';
  currentPassword?: 'account.errors.currentPasswordRequired';
  password?: 'account.errors.passwordTooShort' | 'account.errors.passwordTooLong';
  confirmPassword?: 'account.errors.passwordMismatch';
}

export type AccountFormResult = { body: SelfUpdateBody; errors?: never } | { body?: never; errors: AccountFormErrors };

/**
 * Checks the profile form with the server's own schema (display name ≤ 20, password 8–64 or empty
 * to keep it, the current password to set a new one), plus the confirmation, which only the form knows about.
 * `removePasskeys`: ids of passkeys to remove with the new password.
 */
export function checkAccountForm(values: AccountFormValues, removePasskeys: number[] = []): AccountFormResult {
  const errors: AccountFormErrors = {};
  const parsed = selfUpdateBody.safeParse({
    display_name: values.displayName,
    password: values.password,
    ...(values.password ? { original_password: values.currentPassword } : {}),
    // Passkeys are removed only together with a new password.
    ...(values.password && removePasskeys.length > 0 ? { remove_passkeys: removePasskeys } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'display_name') errors.displayName = 'account.errors.displayNameTooLong';
      if (issue.path[0] === 'password') {
        errors.password =
          issue.code === 'too_small' || values.password.length < 8
            ? 'account.errors.passwordTooShort'
            : 'account.errors.passwordTooLong';
      }
    }
  }
  if (values.password !== values.confirmPassword) errors.confirmPassword = 'account.errors.passwordMismatch';
  if (values.password && !values.currentPassword) errors.currentPassword = 'account.errors.currentPasswordRequired';
  if (!parsed.success || errors.confirmPassword || errors.currentPassword) return { errors };
  return { body: parsed.data };
}
