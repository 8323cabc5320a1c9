import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';
import { describeError, notify } from '../../lib/notify.js';
import { useOAuthCallback } from './auth.api.js';
import { type OAuthProvider, readOAuthReturn } from './oauthUrls.js';
import { useCountdown } from './useCountdown.js';

/** Seconds the error stays on screen before the visitor is sent back to /login (spec §8). */
export const OAUTH_RETRY_SECONDS = 5;

/** Shows why the sign-in failed and counts down to the sign-in page. */
function OAuthFailure({ message }: { message: string }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const countdown = useCountdown(OAUTH_RETRY_SECONDS);

  useEffect(() => {
    if (countdown.seconds === 0) void navigate('/login', { replace: true });
  }, [countdown.seconds, navigate]);

  return (
    <StatusScreen
      testId="oauth-error"
      badge={<ErrorOutlineRounded fontSize="inherit" sx={{ color: 'error.main' }} />}
      title={t('oauth.failedTitle')}
      description={
        <>
          <Box component="span" data-testid="oauth-error-message" sx={{ display: 'block', color: 'text.primary' }}>
            {message}
          </Box>
          <Box component="span" data-testid="oauth-countdown" sx={{ display: 'block', mt: 1.5 }}>
            {t('oauth.retryCountdown', { seconds: countdown.seconds })}
          </Box>
        </>
      }
      action={
        <Button component={RouterLink} to="/login" replace variant="contained" data-testid="oauth-retry">
          {t('oauth.retryNow')}
        </Button>
      }
    />
  );
}

/**
 * The page a provider sends the browser back to. It hands `code` and `state` to the server once:
 * a sign-in stores the user and opens /panel, a binding (the visitor was signed in) opens the
 * profile; a failure shows the error and counts down to /login.
 */
function OAuthReturn({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const { search } = useLocation();
  const callback = useOAuthCallback(provider);
  const { mutate } = callback;
  const [returned] = useState(() => readOAuthReturn(search));
  // A provider's code works once; StrictMode's second effect run must not spend it again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !returned.code) return;
    started.current = true;
    mutate(
      { code: returned.code, state: returned.state },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'bind') {
            notify.success(t('oauth.bindSuccess'));
            void navigate('/panel/profile', { replace: true });
          } else {
            notify.success(t('login.success'));
            void navigate('/panel', { replace: true });
          }
        },
      },
    );
  }, [mutate, returned, navigate, t]);

  if (!returned.code) {
    const message = returned.providerError
      ? t('common:error.withPrefix', { message: returned.providerError })
      : t('common:error.invalidLink');
    return <OAuthFailure message={message} />;
  }
  if (callback.isError) return <OAuthFailure message={describeError(callback.error)} />;

  return (
    <StatusScreen
      testId="oauth-pending"
      badge={<CircularProgress size={48} thickness={4} />}
      title={t('oauth.pendingTitle', { provider: t(`oauth.providers.${provider}`) })}
      description={t('oauth.pendingDescription')}
    />
  );
}

export function GitHubOAuthPage() {
  return <OAuthReturn provider="github" />;
}

export function OidcOAuthPage() {
  return <OAuthReturn provider="oidc" />;
}

export function LarkOAuthPage() {
  return <OAuthReturn provider="lark" />;
}
