import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type LoginBody, loginBody } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { describeError, notify } from '../../lib/notify.js';
import { useLogin } from './auth.api.js';
import { PasskeySignIn } from './PasskeySignIn.js';
import { PasswordField } from './PasswordField.js';

type Field = keyof LoginBody;
type FieldErrors = Partial<Record<Field, boolean>>;

function invalidFields(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (field === 'username' || field === 'password') errors[field] = true;
  }
  return errors;
}

/** Username/email and password sign-in (spec §5); on success stores the user and opens /panel. */
export function LoginForm() {
  const { t } = useTranslation('auth');
  const [values, setValues] = useState<LoginBody>({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const login = useLogin();
  const navigate = useNavigate();

  const update = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setFieldErrors((current) => ({ ...current, [field]: false }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = loginBody.safeParse(values);
    if (!parsed.success) {
      setFieldErrors(invalidFields(parsed.error.issues));
      return;
    }
    login.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(t('login.success'));
        void navigate('/panel', { replace: true });
      },
    });
  };

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.25} aria-label={t('login.title')}>
      {login.isError && (
        <Alert severity="error" data-testid="login-error">
          {describeError(login.error)}
        </Alert>
      )}
      <TextField
        name="username"
        label={t('login.username')}
        value={values.username}
        onChange={update('username')}
        error={Boolean(fieldErrors.username)}
        helperText={fieldErrors.username ? t('validation.usernameOrEmailRequired') : undefined}
        autoComplete="username"
        autoFocus
      />
      <PasswordField
        name="password"
        label={t('login.password')}
        value={values.password}
        onChange={update('password')}
        error={Boolean(fieldErrors.password)}
        helperText={fieldErrors.password ? t('validation.passwordRequired') : undefined}
        autoComplete="current-password"
      />
      <Button type="submit" variant="contained" size="large" loading={login.isPending} data-testid="login-submit">
        {t('login.submit')}
      </Button>
      <PasskeySignIn />
    </Stack>
  );
}
