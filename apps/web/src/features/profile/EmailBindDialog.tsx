import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { emailBindQuery, emailCodeQuery } from '@one-hub/contracts';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Turnstile, useTurnstileGate } from '../../components/Turnstile.js';
import { notify } from '../../lib/notify.js';
import { useBindEmail, useSendEmailCode } from './profile.api.js';

/** Seconds before another code may be asked for. */
const RESEND_SECONDS = 60;

type Field = 'email' | 'code';

/** Binds an e-mail address: a code is mailed to it, then sent back with the address. */
export function EmailBindDialog({ open, current, onClose }: { open: boolean; current: string; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const sendCode = useSendEmailCode();
  const bind = useBindEmail();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState<Partial<Record<Field, boolean>>>({});
  const [countdown, setCountdown] = useState(0);
  const humanCheck = useTurnstileGate(useCallback(() => notify.info(t('email.humanCheckFirst')), [t]));
  const { setToken: setHumanToken } = humanCheck;

  useEffect(() => {
    if (!open) return;
    setEmail(current);
    setCode('');
    setInvalid({});
    setHumanToken('');
  }, [open, current, setHumanToken]);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const send = () => {
    const parsed = emailCodeQuery.safeParse({ email });
    if (!parsed.success) {
      setInvalid({ email: true });
      return;
    }
    if (!humanCheck.ready()) return;
    sendCode.mutate(
      { ...parsed.data, turnstile: humanCheck.spend() || undefined },
      {
        onSuccess: () => {
          notify.success(t('email.codeSent'));
          setCountdown(RESEND_SECONDS);
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = emailBindQuery.safeParse({ email, code });
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => issue.path[0]);
      setInvalid({ email: fields.includes('email'), code: fields.includes('code') });
      return;
    }
    bind.mutate(parsed.data, {
      onSuccess: () => {
        notify.success(t('email.bound'));
        onClose();
      },
    });
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="profile-email-dialog">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{current ? t('email.changeTitle') : t('email.bindTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2.5 }}>{t('email.description')}</DialogContentText>
          <Stack spacing={2}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                type="email"
                label={t('email.address')}
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setInvalid((current) => ({ ...current, email: false }));
                }}
                error={Boolean(invalid.email)}
                helperText={invalid.email ? t('email.addressInvalid') : undefined}
                autoComplete="email"
                autoFocus
                slotProps={{ htmlInput: { 'data-testid': 'profile-email-input' } }}
              />
              <Button
                variant="outlined"
                onClick={send}
                loading={sendCode.isPending}
                disabled={countdown > 0}
                data-testid="profile-email-send"
                sx={{ flexShrink: 0, height: 56, minWidth: 104 }}
              >
                {countdown > 0 ? t('email.resendIn', { seconds: countdown }) : t('email.sendCode')}
              </Button>
            </Stack>
            <Turnstile gate={humanCheck} fallback="failure" />
            <TextField
              label={t('email.code')}
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                setInvalid((current) => ({ ...current, code: false }));
              }}
              error={Boolean(invalid.code)}
              helperText={invalid.code ? t('email.codeRequired') : undefined}
              autoComplete="one-time-code"
              slotProps={{ htmlInput: { 'data-testid': 'profile-email-code' } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} color="inherit">
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={bind.isPending} data-testid="profile-email-submit">
            {t('email.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
