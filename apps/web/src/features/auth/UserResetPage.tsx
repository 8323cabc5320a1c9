import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { passwordResetBody } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { formatTime } from '../../lib/format.js';
import { describeError } from '../../lib/notify.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { AuthCard } from './AuthCard.js';
import { type ResetPasskey, useResetPassword } from './auth.api.js';

/** The new password, large enough to read and type, with a copy button. */
function NewPassword({ password }: { password: string }) {
  const { t } = useTranslation('auth');
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">{t('userReset.newPassword')}</Typography>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          pl: 2,
          pr: 0.75,
          py: 0.75,
          borderRadius: 1,
          border: 1,
          borderColor: 'divider',
          bgcolor: 'action.hover',
        }}
      >
        <Box
          component="code"
          data-testid="user-reset-password"
          sx={{
            flex: 1,
            fontFamily: monospaceFontStack,
            fontSize: 17,
            letterSpacing: '0.04em',
            wordBreak: 'break-all',
          }}
        >
          {password}
        </Box>
        <Tooltip title={t('userReset.copy')}>
          <IconButton
            aria-label={t('userReset.copy')}
            onClick={() => void copyToClipboard(password, t('userReset.passwordThing'))}
            data-testid="user-reset-copy"
          >
            <ContentCopyRounded fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('userReset.changeLater')}
      </Typography>
    </Stack>
  );
}

/** The passkeys the reset left: they still sign in, whatever the password. */
function PasskeysLeft({ passkeys }: { passkeys: ResetPasskey[] }) {
  const { t } = useTranslation('auth');
  if (passkeys.length === 0) return null;
  return (
    <Alert severity="warning" data-testid="user-reset-passkeys">
      {t('userReset.passkeysLeft')}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {passkeys.map((passkey) => (
          <li key={passkey.id}>
            {t('userReset.passkeyItem', { alias: passkey.alias, time: formatTime(passkey.created_time) })}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

/** `/user/reset?email=&token=`: the mailed link; one click sets a new random password and shows it. */
export function UserResetPage() {
  const { t } = useTranslation('auth');
  const [parameters] = useSearchParams();
  const reset = useResetPassword();
  const [removePasskeys, setRemovePasskeys] = useState(false);
  const link = passwordResetBody.safeParse({
    email: parameters.get('email') ?? '',
    token: parameters.get('token') ?? '',
  });

  if (!link.success) {
    return (
      <StatusScreen
        testId="user-reset-invalid"
        badge={<LinkOffRounded fontSize="inherit" />}
        title={t('common:error.invalidLink')}
        description={t('userReset.invalidDescription')}
        action={
          <Button component={RouterLink} to="/reset" variant="contained">
            {t('userReset.requestNew')}
          </Button>
        }
      />
    );
  }

  const { email } = link.data;
  const password = reset.data?.password;

  return (
    <AuthCard
      testId="user-reset-page"
      title={t('userReset.title')}
      subtitle={password ? t('userReset.doneSubtitle') : t('userReset.subtitle', { email })}
      footer={
        password ? undefined : (
          <Link component={RouterLink} to="/reset" underline="hover">
            {t('userReset.requestNew')}
          </Link>
        )
      }
    >
      {reset.isError && (
        <Alert severity="error" data-testid="user-reset-error">
          {describeError(reset.error)}
        </Alert>
      )}
      {password ? (
        <>
          <NewPassword password={password} />
          <PasskeysLeft passkeys={reset.data?.passkeys ?? []} />
          <Button component={RouterLink} to="/login" variant="contained" size="large" data-testid="user-reset-login">
            {t('userReset.signIn')}
          </Button>
        </>
      ) : (
        <>
          <FormControlLabel
            label={t('userReset.removePasskeys')}
            control={
              <Checkbox
                checked={removePasskeys}
                onChange={(event) => setRemovePasskeys(event.target.checked)}
                slotProps={{ input: { 'data-testid': 'user-reset-remove-passkeys' } as object }}
              />
            }
          />
          <Button
            variant="contained"
            size="large"
            loading={reset.isPending}
            onClick={() => reset.mutate({ ...link.data, ...(removePasskeys ? { remove_passkeys: true } : {}) })}
            data-testid="user-reset-submit"
          >
            {t('userReset.submit')}
          </Button>
        </>
      )}
    </AuthCard>
  );
}
