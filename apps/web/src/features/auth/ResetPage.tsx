import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Turnstile, useTurnstileGate } from '../../components/Turnstile.js';
import { describeError, notify } from '../../lib/notify.js';
import { AuthCard } from './AuthCard.js';
import { useSendPasswordReset } from './auth.api.js';
import { emailMessage, type FieldMessage, RESEND_SECONDS } from './authForms.js';
import { useCountdown } from './useCountdown.js';

/** `/reset`: mails a password-reset link to the account's address, with a resend countdown. */
export function ResetPage() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<FieldMessage | null>(null);
  const [sentTo, setSentTo] = useState('');
  const sendReset = useSendPasswordReset();
  const resend = useCountdown();
  const turnstile = useTurnstileGate(useCallback(() => notify.info(t('common:turnstile.checking')), [t]));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = emailMessage(email);
    setProblem(found);
    if (found || !turnstile.ready()) return;
    const address = email.trim();
    sendReset.mutate(
      { email: address, turnstile: turnstile.spend() },
      {
        onSuccess: () => {
          setSentTo(address);
          resend.start(RESEND_SECONDS);
        },
      },
    );
  };

  return (
    <AuthCard
      testId="reset-page"
      title={t('reset.title')}
      subtitle={t('reset.subtitle')}
      footer={
        <Link component={RouterLink} to="/login" underline="hover" data-testid="reset-login">
          {t('reset.backToLogin')}
        </Link>
      }
    >
      <Stack component="form" noValidate onSubmit={submit} spacing={2.25} aria-label={t('reset.title')}>
        {sentTo && !sendReset.isError && (
          <Alert severity="success" data-testid="reset-sent">
            {t('reset.sent', { email: sentTo })}
          </Alert>
        )}
        {sendReset.isError && (
          <Alert severity="error" data-testid="reset-error">
            {describeError(sendReset.error)}
          </Alert>
        )}
        <TextField
          name="email"
          type="email"
          label={t('reset.email')}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setProblem(null);
          }}
          error={Boolean(problem)}
          helperText={problem ? t(problem.key) : undefined}
          autoComplete="email"
          autoFocus
        />
        <Turnstile gate={turnstile} />
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={sendReset.isPending}
          disabled={resend.seconds > 0}
          data-testid="reset-submit"
        >
          {resend.seconds > 0
            ? t('reset.resendIn', { seconds: resend.seconds })
            : sentTo
              ? t('reset.resend')
              : t('reset.submit')}
        </Button>
      </Stack>
    </AuthCard>
  );
}
