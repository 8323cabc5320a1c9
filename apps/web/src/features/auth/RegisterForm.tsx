import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Turnstile, useTurnstileGate } from '../../components/Turnstile.js';
import { describeError, notify } from '../../lib/notify.js';
import { storedAffCode, useRegister, useSendVerificationCode } from './auth.api.js';
import {
  checkRegisterForm,
  emailMessage,
  type FieldMessage,
  type FieldMessages,
  RESEND_SECONDS,
  type RegisterField,
  type RegisterFormValues,
} from './authForms.js';
import { PasswordField } from './PasswordField.js';
import { useCountdown } from './useCountdown.js';

const emptyForm: RegisterFormValues = { username: '', password: '', confirm: '', email: '', verification_code: '' };

export function RegisterForm({ emailVerification }: { emailVerification: boolean }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [values, setValues] = useState<RegisterFormValues>(emptyForm);
  const [messages, setMessages] = useState<FieldMessages<RegisterField>>({});
  const register = useRegister();
  const sendCode = useSendVerificationCode();
  const resend = useCountdown();
  const turnstile = useTurnstileGate(useCallback(() => notify.info(t('common:turnstile.checking')), [t]));

  const text = (message: FieldMessage | undefined) => (message ? t(message.key, message.values) : undefined);
  const field = (name: RegisterField) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [name]: event.target.value }));
      setMessages((current) => ({ ...current, [name]: undefined }));
    },
    error: Boolean(messages[name]),
    helperText: text(messages[name]),
  });

  const requestCode = () => {
    const problem = emailMessage(values.email);
    if (problem) {
      setMessages((current) => ({ ...current, email: problem }));
      return;
    }
    if (!turnstile.ready()) return;
    sendCode.mutate(
      { email: values.email.trim(), turnstile: turnstile.spend() },
      {
        onSuccess: () => {
          notify.success(t('register.codeSent'));
          resend.start(RESEND_SECONDS);
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkRegisterForm(values, { emailVerification, affCode: storedAffCode() ?? null });
    if (!checked.ok) {
      setMessages(checked.messages);
      return;
    }
    if (!turnstile.ready()) return;
    register.mutate(
      { body: checked.body, turnstile: turnstile.spend() },
      {
        onSuccess: () => {
          notify.success(t('register.success'));
          void navigate('/login');
        },
      },
    );
  };

  const codeButtonLabel =
    resend.seconds > 0 ? t('register.resendIn', { seconds: resend.seconds }) : t('register.sendCode');

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2.25} aria-label={t('register.title')}>
      {register.isError && (
        <Alert severity="error" data-testid="register-error">
          {describeError(register.error)}
        </Alert>
      )}
      <TextField
        {...field('username')}
        label={t('register.username')}
        autoComplete="username"
        autoFocus
        helperText={text(messages.username) ?? t('register.usernameHint')}
      />
      <PasswordField
        {...field('password')}
        label={t('register.password')}
        autoComplete="new-password"
        helperText={text(messages.password) ?? t('register.passwordHint')}
      />
      <PasswordField {...field('confirm')} label={t('register.confirm')} autoComplete="new-password" />
      {emailVerification && (
        <>
          <TextField
            {...field('email')}
            type="email"
            label={t('register.email')}
            autoComplete="email"
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Button
                      size="small"
                      onClick={requestCode}
                      loading={sendCode.isPending}
                      disabled={resend.seconds > 0}
                      data-testid="register-send-code"
                      sx={{ whiteSpace: 'nowrap', mr: -0.75, px: 1.25, minWidth: 0 }}
                    >
                      {codeButtonLabel}
                    </Button>
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            {...field('verification_code')}
            label={t('register.code')}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { 'data-testid': 'register-code' } }}
          />
        </>
      )}
      <Turnstile gate={turnstile} />
      <Button type="submit" variant="contained" size="large" loading={register.isPending} data-testid="register-submit">
        {t('register.submit')}
      </Button>
    </Stack>
  );
}
