import FingerprintRounded from '@mui/icons-material/FingerprintRounded';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { passkeysSupported, usePasskeyLogin } from '../../hooks/usePasskeys.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { notify } from '../../lib/notify.js';

/** "Sign in with a passkey", shown while the site turns passkey sign-in on (`passkey_login`). */
export function PasskeySignIn() {
  const { t } = useTranslation('auth');
  const siteInfo = useSiteInfo();
  const passkeyLogin = usePasskeyLogin();
  const navigate = useNavigate();

  if (!siteInfo.passkey_login) return null;

  const signIn = () => {
    if (!passkeysSupported()) {
      notify.error(t('passkey.unsupported'));
      return;
    }
    passkeyLogin.mutate(undefined, {
      onSuccess: () => {
        notify.success(t('login.success'));
        void navigate('/panel', { replace: true });
      },
    });
  };

  return (
    <Button
      type="button"
      variant="outlined"
      size="large"
      startIcon={<FingerprintRounded />}
      onClick={signIn}
      loading={passkeyLogin.isPending}
      data-testid="login-passkey"
    >
      {t('passkey.signIn')}
    </Button>
  );
}
