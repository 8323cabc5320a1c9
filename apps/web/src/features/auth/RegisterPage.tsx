import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { useSession } from '../../hooks/useSession.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { AuthCard } from './AuthCard.js';
import { RegisterForm } from './RegisterForm.js';

/** `/register`: a new account by username and password, with an e-mail code when the site asks for one. */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const siteInfo = useSiteInfo();
  const { isSignedIn } = useSession();

  if (isSignedIn) return <Navigate to="/panel" replace />;

  return (
    <AuthCard
      testId="register-page"
      title={t('register.title')}
      subtitle={t('register.subtitle', { site: siteInfo.system_name })}
      footer={
        <Box component="span">
          {t('register.haveAccount')}{' '}
          <Link
            component={RouterLink}
            to="/login"
            underline="hover"
            sx={{ fontWeight: 600 }}
            data-testid="register-login"
          >
            {t('register.signIn')}
          </Link>
        </Box>
      }
    >
      {siteInfo.password_register ? (
        <RegisterForm emailVerification={siteInfo.email_verification} />
      ) : (
        <Alert severity="info" data-testid="register-closed">
          {t('register.closed')}
        </Alert>
      )}
    </AuthCard>
  );
}
