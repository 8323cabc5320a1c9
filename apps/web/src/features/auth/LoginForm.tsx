import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type LoginBody, loginBody } from '@one-hub/contracts';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { strings } from '../../i18n/strings.js';
import { errorMessage } from '../../lib/api.js';
import { useLogin } from './auth.api.js';

type FieldErrors = Partial<Record<keyof LoginBody, string>>;

function fieldErrorsOf(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if ((field === 'username' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export function LoginForm({ disabled }: { disabled: boolean }) {
  const [values, setValues] = useState<LoginBody>({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const login = useLogin();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();

  const update = (field: keyof LoginBody) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setServerError(null);
    const parsed = loginBody.safeParse(values);
    if (!parsed.success) {
      setFieldErrors(fieldErrorsOf(parsed.error.issues));
      return;
    }
    login.mutate(parsed.data, {
      onSuccess: () => {
        enqueueSnackbar(strings.login.success, { variant: 'success' });
        void navigate('/panel', { replace: true });
      },
      onError: (error) => {
        const message = errorMessage(error);
        setServerError(message);
        enqueueSnackbar(message, { variant: 'error' });
      },
    });
  };

  const passwordToggleLabel = showPassword ? strings.login.hidePassword : strings.login.showPassword;

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.5} aria-label={strings.login.title}>
      {serverError && (
        <Alert severity="error" data-testid="login-error">
          {serverError}
        </Alert>
      )}
      <TextField
        name="username"
        label={strings.login.username}
        value={values.username}
        onChange={update('username')}
        error={Boolean(fieldErrors.username)}
        helperText={fieldErrors.username}
        autoComplete="username"
        autoFocus
        disabled={disabled}
      />
      <TextField
        name="password"
        type={showPassword ? 'text' : 'password'}
        label={strings.login.password}
        value={values.password}
        onChange={update('password')}
        error={Boolean(fieldErrors.password)}
        helperText={fieldErrors.password}
        autoComplete="current-password"
        disabled={disabled}
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  edge="end"
                  aria-label={passwordToggleLabel}
                  onClick={() => setShowPassword((shown) => !shown)}
                  disabled={disabled}
                >
                  {showPassword ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button type="submit" variant="contained" size="large" loading={login.isPending} disabled={disabled}>
        {strings.login.submit}
      </Button>
    </Stack>
  );
}
