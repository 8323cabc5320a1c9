import ForumRounded from '@mui/icons-material/ForumRounded';
import GitHub from '@mui/icons-material/GitHub';
import KeyRounded from '@mui/icons-material/KeyRounded';
import SendRounded from '@mui/icons-material/SendRounded';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useOAuthState, useOidcEndpoint } from './auth.api.js';
import { githubAuthorizeUrl, larkAuthorizeUrl } from './oauthUrls.js';
import { WeChatLoginDialog } from './WeChatLoginDialog.js';

type Provider = 'github' | 'oidc' | 'lark' | 'wechat';

interface ProviderButton {
  id: Provider;
  label: string;
  icon: ReactNode;
  /** The brand colour of the icon; the label keeps the theme's text colour. */
  color?: string;
  onClick(): void;
}

/**
 * The extra sign-in buttons, each shown only when `/api/status` turns it on (spec §7). GitHub and
 * Lark first fetch a state from the server, OIDC its sign-in address; a failed call shows the
 * server's message as an error toast and stops there.
 */
export function SocialSignIn() {
  const { t } = useTranslation('auth');
  const siteInfo = useSiteInfo();
  const oauthState = useOAuthState();
  const oidcEndpoint = useOidcEndpoint();
  const [pending, setPending] = useState<Provider | null>(null);
  const [weChatOpen, setWeChatOpen] = useState(false);
  // The console's own return page, below the base path it is served under.
  const larkReturnPath = useHref('/oauth/lark');

  // Coming back with the browser's Back button can restore this page as it was left: loading.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setPending(null);
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);

  const leaveFor = (provider: Provider, address: Promise<string>) => {
    setPending(provider);
    address.then(
      (url) => window.location.assign(url),
      () => setPending(null),
    );
  };

  const buttons: ProviderButton[] = [];
  if (siteInfo.github_oauth && siteInfo.github_client_id) {
    buttons.push({
      id: 'github',
      label: t('social.github'),
      icon: <GitHub />,
      onClick: () =>
        leaveFor(
          'github',
          oauthState.mutateAsync().then((state) => githubAuthorizeUrl(siteInfo.github_client_id, state)),
        ),
    });
  }
  if (siteInfo.oidc_auth) {
    buttons.push({
      id: 'oidc',
      label: t('social.oidc'),
      icon: <KeyRounded />,
      onClick: () => leaveFor('oidc', oidcEndpoint.mutateAsync()),
    });
  }
  if (siteInfo.lark_login && siteInfo.lark_client_id) {
    buttons.push({
      id: 'lark',
      label: t('social.lark'),
      icon: <SendRounded />,
      color: '#3370ff',
      onClick: () =>
        leaveFor(
          'lark',
          oauthState
            .mutateAsync()
            .then((state) =>
              larkAuthorizeUrl(siteInfo.lark_client_id, state, new URL(larkReturnPath, window.location.origin).href),
            ),
        ),
    });
  }
  if (siteInfo.wechat_login) {
    buttons.push({
      id: 'wechat',
      label: t('social.wechat'),
      icon: <ForumRounded />,
      color: '#07c160',
      onClick: () => setWeChatOpen(true),
    });
  }

  if (buttons.length === 0) return null;

  return (
    <Stack spacing={2} data-testid="social-sign-in">
      <Divider sx={{ typography: 'caption', color: 'text.secondary' }}>{t('social.divider')}</Divider>
      <Stack spacing={1.25}>
        {buttons.map((button) => (
          <Button
            key={button.id}
            variant="outlined"
            color="inherit"
            size="large"
            startIcon={button.icon}
            loading={pending === button.id}
            disabled={pending !== null && pending !== button.id}
            onClick={button.onClick}
            data-testid={`login-${button.id}`}
            sx={{
              borderColor: 'divider',
              fontWeight: 600,
              '& .MuiButton-startIcon': button.color ? { color: button.color } : {},
              '&:hover': { borderColor: 'text.secondary', bgcolor: 'action.hover' },
            }}
          >
            {button.label}
          </Button>
        ))}
      </Stack>
      {siteInfo.wechat_login && (
        <WeChatLoginDialog open={weChatOpen} qrCode={siteInfo.wechat_qrcode} onClose={() => setWeChatOpen(false)} />
      )}
    </Stack>
  );
}
