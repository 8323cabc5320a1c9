import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { useLogout } from '../../hooks/useLogout.js';
import { useSelf } from '../../hooks/useSelf.js';
import { notify } from '../../lib/notify.js';
import { forgetSignInPassword, signInPassword } from '../../lib/signInPassword.js';
import { type AccountFormErrors, type AccountFormValues, checkAccountForm } from './accountForm.js';
import { PasskeyRemovalChoice } from './PasskeyRemovalChoice.js';
import { useUpdateSelf } from './profile.api.js';

const empty = { currentPassword: '', password: '', confirmPassword: '' };

/**
 * Asks for a password of the user's own while the account still has one the server made up (root's
 * first-start password, `npm run reset-root-password`, an e-mailed reset). It cannot be dismissed:
 * choose a password, or sign out.
 */
export function PasswordChangeDialog() {
  const { t } = useTranslation('profile');
  const self = useSelf();
  const update = useUpdateSelf();
  const logout = useLogout();
  // The password just typed at sign-in, when there was one: not asked for a second time.
  const [known] = useState(signInPassword);
  const [values, setValues] = useState<Omit<AccountFormValues, 'displayName'>>({
    ...empty,
    currentPassword: known ?? '',
  });
  const [errors, setErrors] = useState<AccountFormErrors>({});
  const [removePasskeys, setRemovePasskeys] = useState<number[]>([]);
  const user = self.data;
  if (!user?.password_change_required) return null;

  const change = (field: keyof typeof empty) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = checkAccountForm({ displayName: user.display_name, ...values }, removePasskeys);
    // An empty new password means "keep it" on the profile form; here one is required.
    const missing: AccountFormErrors = values.password ? {} : { password: 'account.errors.passwordTooShort' };
    if (result.errors || !values.password) {
      setErrors({ ...result.errors, ...missing });
      return;
    }
    update.mutate(result.body, {
      onSuccess: () => {
        forgetSignInPassword();
        notify.success(t('account.passwordChanged'));
      },
    });
  };
  const signOut = () => logout.mutate();

  const field = (name: keyof typeof empty, label: string, autoComplete: string, testId: string, hint = ' ') => (
    <TextField
      type="password"
      label={label}
      value={values[name]}
      onChange={change(name)}
      error={Boolean(errors[name])}
      helperText={errors[name] ? t(errors[name]) : hint}
      autoComplete={autoComplete}
      disabled={update.isPending}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    />
  );

  return (
    <FormDialog open onClose={() => {}} maxWidth="xs" testId="password-change-dialog">
      <DialogForm
        onSubmit={submit}
        testId="password-change-form"
        title={t('forcedChange.title')}
        onCancel={signOut}
        saving={update.isPending}
        cancelLabel={t('forcedChange.signOut')}
        submitLabel={t('forcedChange.submit')}
        cancelTestId="password-change-sign-out"
        submitTestId="password-change-submit"
      >
        <Stack spacing={2}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('forcedChange.message')}
          </Typography>
          {!known && field('currentPassword', t('forcedChange.current'), 'current-password', 'password-change-current')}
          {field(
            'password',
            t('account.newPassword'),
            'new-password',
            'password-change-new',
            t('account.passwordHint'),
          )}
          {field('confirmPassword', t('account.confirmPassword'), 'new-password', 'password-change-confirm')}
          <PasskeyRemovalChoice selected={removePasskeys} onChange={setRemovePasskeys} disabled={update.isPending} />
        </Stack>
      </DialogForm>
    </FormDialog>
  );
}
