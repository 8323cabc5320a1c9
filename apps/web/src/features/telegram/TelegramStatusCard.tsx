import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import SyncOutlined from '@mui/icons-material/SyncOutlined';
import TelegramIcon from '@mui/icons-material/Telegram';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TelegramBotStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { IconTile } from '../../components/IconTile.js';
import { StateChip } from '../../components/StateChip.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { notify } from '../../lib/notify.js';
import { telegramBotUrl } from '../../lib/oauthLinks.js';
import { useReloadTelegram, useTelegramStatus } from './telegram.api.js';

function StatusChips({ status }: { status: TelegramBotStatus }) {
  const { t } = useTranslation('telegram');
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
      <StateChip
        label={status.status ? t('status.enabled') : t('status.disabled')}
        state={status.status ? 'enabled' : 'disabled'}
        color={status.status ? 'success' : 'warning'}
        testId="telegram-status-enabled"
      />
      {status.status && (
        <StateChip
          label={status.is_webhook ? t('status.webhook') : t('status.polling')}
          state={status.is_webhook ? 'webhook' : 'polling'}
          color="info"
          testId="telegram-status-mode"
        />
      )}
    </Stack>
  );
}

function ReloadButton({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('telegram');
  const reload = useReloadTelegram();
  const button = (
    <Button
      variant="outlined"
      startIcon={<SyncOutlined />}
      loading={reload.isPending}
      disabled={!enabled}
      onClick={() =>
        reload.mutate(undefined, { onSuccess: (message) => notify.success(message || t('status.reloaded')) })
      }
      data-testid="telegram-reload"
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('status.reload')}
    </Button>
  );
  // A disabled button gets no pointer events: the wrapper carries the explanation's tooltip.
  return (
    <Tooltip title={enabled ? t('status.reloadHint') : t('status.reloadOff')}>
      <Box component="span" sx={{ display: 'inline-flex' }} data-testid="telegram-reload-wrapper">
        {button}
      </Box>
    </Tooltip>
  );
}

/** Whether the bot runs, how it receives updates, its @username, and the reload of its commands. */
export function TelegramStatusCard() {
  const { t } = useTranslation('telegram');
  const status = useTelegramStatus();
  const bot = useSiteInfo().telegram_bot.trim().replace(/^@/, '');
  const enabled = Boolean(status.data?.status);
  return (
    <Card sx={{ mb: 3 }} data-testid="telegram-status">
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
          <IconTile size={48} borderRadius="12px" color={enabled ? 'primary.main' : 'text.secondary'}>
            <TelegramIcon />
          </IconTile>
          {/* On a phone the text takes the row beside the icon and the button goes under it, lined up. */}
          <Box sx={{ flex: { xs: '1 1 calc(100% - 64px)', sm: 1 }, minWidth: 0 }}>
            <Typography variant="h6" component="h2">
              {t('status.title')}
            </Typography>
            <Box sx={{ mt: 1 }}>
              {status.data ? <StatusChips status={status.data} /> : <Skeleton width={180} height={28} />}
            </Box>
            {enabled && (
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }} data-testid="telegram-status-hint">
                {status.data?.is_webhook ? t('status.webhookHint') : t('status.pollingHint')}
              </Typography>
            )}
            {enabled && (
              <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="telegram-status-username">
                {bot ? (
                  <Button
                    size="small"
                    href={telegramBotUrl(bot)}
                    target="_blank"
                    rel="noopener noreferrer"
                    endIcon={<OpenInNewOutlined fontSize="small" />}
                    sx={{ ml: -0.75, textTransform: 'none' }}
                  >
                    @{bot}
                  </Button>
                ) : (
                  t('status.unknownUsername')
                )}
              </Typography>
            )}
          </Box>
          <Box sx={{ flexShrink: 0, ml: { xs: 8, sm: 0 } }}>
            <ReloadButton enabled={enabled} />
          </Box>
        </Box>
        {status.data && !enabled && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="telegram-status-off">
            {t('status.offHint')}
          </Alert>
        )}
        {status.isError && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="telegram-status-error">
            {t('status.loadError')}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
