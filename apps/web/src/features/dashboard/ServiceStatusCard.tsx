import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.js';
import { describeError } from '../../lib/notify.js';
import { type MonitorState, monitorGroups, type UptimeHeartbeats, type UptimeStatusPage } from './serviceStatus.js';

const STATUS_PATH = '/api/user/dashboard/uptimekuma/status-page';

/** The status page and its heartbeats, read together; the server keeps them for a minute. */
function useServiceStatus() {
  return useQuery({
    queryKey: ['user', 'dashboard', 'uptime'],
    queryFn: async () => {
      const [page, beats] = await Promise.all([
        api.getPlain<UptimeStatusPage>(STATUS_PATH),
        api.getPlain<UptimeHeartbeats>(`${STATUS_PATH}/heartbeat`),
      ]);
      return monitorGroups(page, beats);
    },
    staleTime: 60_000,
    refetchInterval: 120_000,
  });
}

const stateColour: Record<MonitorState, (theme: Theme) => string> = {
  up: (theme) => theme.palette.success.main,
  down: (theme) => theme.palette.error.main,
  pending: (theme) => theme.palette.warning.main,
  maintenance: (theme) => theme.palette.info.main,
  unknown: (theme) => theme.palette.text.disabled,
};

/** The Uptime Kuma status page the administrator chose (UptimeEnabled), on the dashboard. */
export function ServiceStatusCard() {
  const { t } = useTranslation('dashboard');
  const status = useServiceStatus();

  return (
    <Card data-testid="service-status">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('serviceStatus.title')}
          </Typography>
          <Tooltip title={t('serviceStatus.refresh')}>
            <span>
              <IconButton
                size="small"
                aria-label={t('serviceStatus.refresh')}
                onClick={() => void status.refetch()}
                disabled={status.isFetching}
              >
                <RefreshOutlined fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
        {status.isPending ? (
          <Skeleton variant="rounded" height={72} />
        ) : status.isError ? (
          <Alert severity="warning">{t('serviceStatus.error', { reason: describeError(status.error) })}</Alert>
        ) : status.data.length === 0 ? (
          <Typography sx={{ color: 'text.secondary' }}>{t('serviceStatus.empty')}</Typography>
        ) : (
          <Stack spacing={2}>
            {status.data.map((group) => (
              <Box key={group.id}>
                <Typography variant="subtitle2" sx={{ color: 'text.secondary', mb: 1 }}>
                  {group.name}
                </Typography>
                <Box
                  sx={{
                    display: 'grid',
                    gap: 1.5,
                    gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
                  }}
                >
                  {group.monitors.map((monitor) => (
                    <Box
                      key={monitor.id}
                      data-testid="service-monitor"
                      data-state={monitor.state}
                      sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 1.25, minWidth: 0 }}
                    >
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                        <Box
                          aria-hidden
                          sx={{
                            width: 10,
                            height: 10,
                            borderRadius: '50%',
                            flexShrink: 0,
                            bgcolor: stateColour[monitor.state],
                          }}
                        />
                        <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap title={monitor.name}>
                          {monitor.name}
                        </Typography>
                      </Stack>
                      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                        {t(`serviceStatus.state.${monitor.state}`)}
                        {monitor.uptime24h !== null &&
                          ` · ${t('serviceStatus.uptime', { percent: monitor.uptime24h.toFixed(2) })}`}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              </Box>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
