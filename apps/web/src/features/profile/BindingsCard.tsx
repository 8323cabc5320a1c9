import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import EmailOutlined from '@mui/icons-material/EmailOutlined';
import GitHub from '@mui/icons-material/GitHub';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Telegram from '@mui/icons-material/Telegram';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { BindingType, UserView } from '@one-hub/contracts';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { SectionCard } from '../../components/SectionCard.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { notify, showError } from '../../lib/notify.js';
import { githubAuthorizeUrl, larkAuthorizeUrl, telegramBotUrl } from '../../lib/oauthLinks.js';
import { EmailBindDialog } from './EmailBindDialog.js';
import { fetchOAuthState, fetchOidcEndpoint, useUnbind } from './profile.api.js';
import { WeChatBindDialog } from './WeChatBindDialog.js';

type Kind = 'email' | BindingType | 'telegram';

interface Row {
  kind: Kind;
  icon: ReactNode;
  bound: boolean;
  /** The address or account id when bound, an instruction otherwise. */
  detail: string;
  action: ReactNode;
}

function BindingRow({ row }: { row: Row }) {
  const { t } = useTranslation('profile');
  return (
    <Box
      data-testid={`profile-binding-${row.kind}`}
      sx={{
        display: 'flex',
        alignItems: 'center',
        columnGap: 2,
        rowGap: 1.25,
        py: 1.75,
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
      }}
    >
      <Box
        aria-hidden
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 40,
          height: 40,
          borderRadius: '50%',
          flexShrink: 0,
          color: row.bound ? 'primary.main' : 'text.secondary',
          bgcolor: 'action.hover',
        }}
      >
        {row.icon}
      </Box>
      {/* On a phone the button goes under the text, lined up with it. */}
      <Box sx={{ minWidth: 0, flex: { xs: '1 1 calc(100% - 56px)', sm: 1 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle2" component="h3">
            {t(`bindings.names.${row.kind}`)}
          </Typography>
          <Chip
            size="small"
            color={row.bound ? 'success' : 'default'}
            variant={row.bound ? 'filled' : 'outlined'}
            label={row.bound ? t('bindings.bound') : t('bindings.notBound')}
            data-testid={`profile-binding-${row.kind}-status`}
            sx={{ height: 22 }}
          />
        </Box>
        <Typography
          variant="body2"
          sx={{ color: 'text.secondary', mt: 0.25, overflowWrap: 'anywhere' }}
          data-testid={`profile-binding-${row.kind}-detail`}
        >
          {row.detail}
        </Typography>
      </Box>
      {row.action && <Box sx={{ flexShrink: 0, ml: { xs: 7, sm: 0 } }}>{row.action}</Box>}
    </Box>
  );
}

/** Sign-in methods the site enables (from /api/status) and the ones the user has bound already. */
export function BindingsCard({ user }: { user: UserView }) {
  const { t } = useTranslation('profile');
  const siteInfo = useSiteInfo();
  const unbind = useUnbind();
  const larkReturnPath = useHref('/oauth/lark');
  const [dialog, setDialog] = useState<'email' | 'wechat' | null>(null);
  const [unbinding, setUnbinding] = useState<BindingType | null>(null);
  const [starting, setStarting] = useState<BindingType | null>(null);

  /** GitHub and Lark need the server's state first; OIDC's endpoint carries its own. */
  const startRedirect = async (kind: 'github' | 'lark' | 'oidc') => {
    setStarting(kind);
    try {
      let target: string;
      if (kind === 'oidc') target = await fetchOidcEndpoint();
      else {
        const state = await fetchOAuthState();
        target =
          kind === 'github'
            ? githubAuthorizeUrl(siteInfo.github_client_id, state)
            : larkAuthorizeUrl(siteInfo.lark_client_id, state, new URL(larkReturnPath, window.location.origin).href);
      }
      window.location.assign(target);
    } catch (error) {
      showError(error);
      setStarting(null);
    }
  };

  const bindButton = (kind: Kind, onClick: () => void, busy = false, label = t('bindings.bind')) => (
    <Button
      variant="outlined"
      size="small"
      startIcon={<LinkOutlined />}
      onClick={onClick}
      loading={busy}
      data-testid={`profile-bind-${kind}`}
    >
      {label}
    </Button>
  );
  const unbindButton = (kind: BindingType) => (
    <Button size="small" color="error" onClick={() => setUnbinding(kind)} data-testid={`profile-unbind-${kind}`}>
      {t('bindings.unbind')}
    </Button>
  );
  const externalAction = (kind: BindingType, bound: boolean, enabled: boolean, onBind: () => void) => {
    if (bound) return unbindButton(kind);
    return enabled ? bindButton(kind, onBind, starting === kind) : null;
  };

  const rows: Row[] = [
    {
      kind: 'email',
      icon: <EmailOutlined />,
      bound: Boolean(user.email),
      detail: user.email || t('bindings.emailHint'),
      action: bindButton(
        'email',
        () => setDialog('email'),
        false,
        user.email ? t('bindings.change') : t('bindings.bind'),
      ),
    },
  ];
  const external: Array<{ kind: BindingType; icon: ReactNode; id: string; enabled: boolean; onBind: () => void }> = [
    {
      kind: 'github',
      icon: <GitHub />,
      id: user.github_id,
      enabled: siteInfo.github_oauth && Boolean(siteInfo.github_client_id),
      onBind: () => void startRedirect('github'),
    },
    {
      kind: 'lark',
      icon: <ApartmentOutlined />,
      id: user.lark_id,
      enabled: siteInfo.lark_login && Boolean(siteInfo.lark_client_id),
      onBind: () => void startRedirect('lark'),
    },
    {
      kind: 'oidc',
      icon: <BadgeOutlined />,
      id: user.oidc_id,
      enabled: siteInfo.oidc_auth,
      onBind: () => void startRedirect('oidc'),
    },
    {
      kind: 'wechat',
      icon: <ChatOutlined />,
      id: user.wechat_id,
      enabled: siteInfo.wechat_login,
      onBind: () => setDialog('wechat'),
    },
  ];
  for (const entry of external) {
    const bound = Boolean(entry.id);
    if (!bound && !entry.enabled) continue;
    rows.push({
      kind: entry.kind,
      icon: entry.icon,
      bound,
      detail: bound ? t('bindings.boundAs', { id: entry.id }) : t('bindings.notBoundHint'),
      action: externalAction(entry.kind, bound, entry.enabled, entry.onBind),
    });
  }
  const bot = siteInfo.telegram_bot.trim().replace(/^@/, '');
  // Binding and unbinding both happen in the bot, so the row only makes sense while there is one.
  if (bot) {
    const bound = Boolean(user.telegram_id);
    rows.push({
      kind: 'telegram',
      icon: <Telegram />,
      bound,
      detail: bound ? t('bindings.telegramBound', { bot }) : t('bindings.telegramHint', { bot }),
      action: (
        <Button
          size="small"
          variant="outlined"
          endIcon={<OpenInNewOutlined />}
          href={telegramBotUrl(bot)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="profile-bind-telegram"
        >
          {t('bindings.openBot', { bot })}
        </Button>
      ),
    });
  }

  return (
    <SectionCard
      icon={<LinkOutlined />}
      title={t('bindings.title')}
      subtitle={t('bindings.subtitle')}
      testId="profile-bindings"
    >
      <Box>
        {rows.map((row, index) => (
          <Fragment key={row.kind}>
            {index > 0 && <Divider />}
            <BindingRow row={row} />
          </Fragment>
        ))}
      </Box>
      <EmailBindDialog open={dialog === 'email'} current={user.email} onClose={() => setDialog(null)} />
      <WeChatBindDialog open={dialog === 'wechat'} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={unbinding !== null}
        title={t('bindings.unbindTitle', { name: unbinding ? t(`bindings.names.${unbinding}`) : '' })}
        message={t('bindings.unbindDescription')}
        confirmLabel={t('bindings.unbind')}
        cancelLabel={t('cancel')}
        busy={unbind.isPending}
        onConfirm={() =>
          unbinding &&
          unbind.mutate(unbinding, {
            onSuccess: () => notify.success(t('bindings.unbound')),
            onSettled: () => setUnbinding(null),
          })
        }
        onClose={() => setUnbinding(null)}
        testId="profile-unbind-dialog"
      />
    </SectionCard>
  );
}
