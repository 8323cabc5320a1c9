import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useHref } from 'react-router';
import { IconTile } from '../../components/IconTile.js';
import { Quota } from '../../components/Quota.js';
import { SectionCard } from '../../components/SectionCard.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { inviteLink } from './invite.js';
import { type SelfWithInvites, useAffCode } from './topup.api.js';

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Box sx={{ p: 1.5, borderRadius: '10px', bgcolor: 'action.hover', minWidth: 0 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} noWrap>
        {label}
      </Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }} data-testid={testId} noWrap>
        {value}
      </Typography>
    </Box>
  );
}

/** Invite figures, shown only when the server reports them on the user. */
function InviteFigures({ user }: { user: SelfWithInvites | undefined }) {
  const { t } = useTranslation('topup');
  if (!user) return null;
  const figures: Array<{ key: string; label: string; value: ReactNode }> = [];
  if (typeof user.aff_count === 'number') {
    figures.push({ key: 'count', label: t('invite.count'), value: user.aff_count.toLocaleString() });
  }
  if (typeof user.aff_quota === 'number') {
    figures.push({ key: 'quota', label: t('invite.rewards'), value: <Quota value={user.aff_quota} /> });
  }
  if (typeof user.aff_history_quota === 'number') {
    figures.push({ key: 'history', label: t('invite.history'), value: <Quota value={user.aff_history_quota} /> });
  }
  if (figures.length === 0) return null;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(120px, 1fr))', gap: 1.5, mt: 2.5 }}>
      {figures.map((figure) => (
        <Figure key={figure.key} label={figure.label} value={figure.value} testId={`topup-invite-${figure.key}`} />
      ))}
    </Box>
  );
}

const STEPS = ['copy', 'share', 'reward'] as const;

/** Three short steps under the link, so the card explains itself. */
function InviteSteps() {
  const { t } = useTranslation('topup');
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mt: 3, display: 'grid', gap: 1.75 }}>
      {STEPS.map((step, index) => (
        <Box component="li" key={step} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <IconTile size={24} borderRadius="50%" outlined sx={{ fontSize: 12, fontWeight: 700 }}>
            {index + 1}
          </IconTile>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle2" component="p">
              {t(`invite.steps.${step}.title`)}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t(`invite.steps.${step}.description`)}
            </Typography>
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** The user's invite link (`…/register?aff=<code>`) with a copy button. */
export function InviteCard({ user }: { user: SelfWithInvites | undefined }) {
  const { t } = useTranslation('topup');
  const { server_address: serverAddress } = useSiteInfo();
  const aff = useAffCode();
  const registerPath = useHref('/register');
  const link = aff.data ? inviteLink(aff.data, serverAddress, new URL(registerPath, window.location.origin).href) : '';

  return (
    <SectionCard
      column
      icon={<GroupAddOutlined />}
      title={t('invite.title')}
      subtitle={t('invite.subtitle')}
      testId="topup-invite-card"
    >
      <Stack spacing={1.5}>
        {aff.isPending ? (
          <Skeleton variant="rounded" height={56} />
        ) : (
          <TextField
            label={t('invite.link')}
            value={link}
            slotProps={{
              input: { readOnly: true },
              htmlInput: {
                'data-testid': 'topup-invite-link',
                onFocus: (event: { target: HTMLInputElement }) => event.target.select(),
              },
            }}
          />
        )}
        <Button
          variant="contained"
          startIcon={<ContentCopyOutlined />}
          disabled={!link}
          onClick={() => void copyToClipboard(link, t('invite.thing'))}
          data-testid="topup-invite-copy"
          sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}
        >
          {t('invite.copy')}
        </Button>
      </Stack>
      <InviteFigures user={user} />
      <InviteSteps />
    </SectionCard>
  );
}
