import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { useSession } from '../../hooks/useSession.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { takeSessionEnded } from '../../lib/session.js';
import { AuthCard } from './AuthCard.js';
import { LoginForm } from './LoginForm.js';
import { SocialSignIn } from './SocialSignIn.js';

/** `/login`: password sign-in, the sign-in buttons the site turns on, and links to sign-up and reset. */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const siteInfo = useSiteInfo();
  const { isSignedIn } = useSession();
  // Only a visitor who arrives signed in is sent on: after signing in here, the form itself
  // navigates, and it must stay mounted until then so that its success toast is shown.
  const [signedInOnArrival] = useState(isSignedIn);
  const [sessionEnded] = useState(takeSessionEnded);
  const passwordLogin = siteInfo.password_login !== false;

  if (signedInOnArrival) return <Navigate to="/panel" replace />;

  return (
    <AuthCard
      testId="login-page"
      title={t('login.title')}
      subtitle={t('login.subtitle', { site: siteInfo.system_name })}
      footer={
        <>
          <Link component={RouterLink} to="/reset" underline="hover" data-testid="login-forgot">
            {t('login.forgotPassword')}
          </Link>
          {siteInfo.password_register && (
            <Box component="span">
              {t('login.noAccount')}{' '}
              <Link
                component={RouterLink}
                to="/register"
                underline="hover"
                sx={{ fontWeight: 600 }}
                data-testid="login-register"
              >
                {t('login.register')}
              </Link>
            </Box>
          )}
        </>
      }
    >
      {sessionEnded && (
        <Alert severity="info" data-testid="session-ended" sx={{ mb: 2 }}>
          {t('login.sessionEnded')}
        </Alert>
      )}
      {passwordLogin ? (
        <LoginForm />
      ) : (
        <Alert severity="info" data-testid="password-login-disabled">
          {t('login.passwordLoginDisabled')}
        </Alert>
      )}
      <SocialSignIn />
    </AuthCard>
  );
}
