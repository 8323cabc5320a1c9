import AutorenewOutlined from '@mui/icons-material/AutorenewOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UserView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { SectionCard } from '../../components/SectionCard.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { useRegenerateAccessToken } from './profile.api.js';

/**
 * The management API's access token. The server keeps only a digest, so a token can be seen only
 * right after it is generated; generating a new one ends the old one (hence the confirmation).
 */
export function AccessTokenCard({ user }: { user: UserView | undefined }) {
  const { t } = useTranslation('profile');
  const regenerate = useRegenerateAccessToken();
  const [confirming, setConfirming] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const hasToken = Boolean(user?.has_access_token) || token !== null;

  const generate = () =>
    regenerate.mutate(undefined, {
      onSuccess: (created) => {
        setToken(created);
        setConfirming(false);
      },
      onError: () => setConfirming(false),
    });

  return (
    <SectionCard
      icon={<VpnKeyOutlined />}
      title={t('token.title')}
      subtitle={t('token.subtitle')}
      testId="profile-token"
    >
      <Stack spacing={2}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('token.status')}
          </Typography>
          <Chip
            size="small"
            color={hasToken ? 'success' : 'default'}
            variant={hasToken ? 'filled' : 'outlined'}
            label={hasToken ? t('token.active') : t('token.none')}
            data-testid="profile-token-status"
          />
        </Box>
        {token && (
          <Alert severity="success" icon={false} sx={{ '& .MuiAlert-message': { width: '100%' } }}>
            <Stack spacing={1.5}>
              <Typography variant="body2">{t('token.shownOnce')}</Typography>
              <TextField
                size="small"
                value={token}
                label={t('token.value')}
                slotProps={{
                  input: {
                    readOnly: true,
                    sx: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 },
                  },
                  htmlInput: {
                    'data-testid': 'profile-token-value',
                    onFocus: (event: { target: HTMLInputElement }) => event.target.select(),
                  },
                }}
              />
              <Button
                variant="contained"
                size="small"
                startIcon={<ContentCopyOutlined />}
                onClick={() => void copyToClipboard(token, t('token.thing'))}
                data-testid="profile-token-copy"
                sx={{ alignSelf: 'flex-start' }}
              >
                {t('token.copy')}
              </Button>
            </Stack>
          </Alert>
        )}
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('token.usage')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<AutorenewOutlined />}
          onClick={() => setConfirming(true)}
          disabled={!user}
          data-testid="profile-token-generate"
          sx={{ alignSelf: 'flex-start' }}
        >
          {hasToken ? t('token.regenerate') : t('token.generate')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={hasToken ? t('token.confirmTitle') : t('token.generate')}
        message={hasToken ? t('token.confirmReplace') : t('token.confirmNew')}
        confirmLabel={hasToken ? t('token.regenerate') : t('token.generate')}
        destructive={hasToken}
        cancelLabel={t('cancel')}
        busy={regenerate.isPending}
        onConfirm={generate}
        onClose={() => setConfirming(false)}
        testId="profile-token-dialog"
      />
    </SectionCard>
  );
}
