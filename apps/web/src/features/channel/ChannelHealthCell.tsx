import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ChannelHealthState, ChannelHealthView, ChannelView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/format.js';
import { formatSeconds, toneChip } from './ChannelCells.js';
import { useChannelTable } from './ChannelTableContext.js';

export const healthTones: Record<ChannelHealthState, 'success' | 'warning' | 'error' | 'info'> = {
  healthy: 'success',
  degraded: 'warning',
  open: 'error',
  half_open: 'info',
};

/** "97%" of a 0..1 rate, or a dash with nothing counted. */
export function percentOf(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`;
}

/** The last failure in one line: its class, when, and what the client was told. */
export function LastError({ error }: { error: NonNullable<ChannelHealthView['last_error']> }) {
  const { t } = useTranslation('channel');
  return (
    <>
      {t(`health.classes.${error.class}`)} · {formatTime(Math.floor(error.at / 1000))}
      <br />
      {error.message}
    </>
  );
}

/**
 * A channel's health in the list: its state, and under it the success rate of the health window
 * and the median latency of its recent successes; the last error in the tooltip. A click opens
 * the last hour's chart. Channels the gateway does not route to (disabled ones) have none.
 */
export function HealthCell({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const { health, onShowHealth } = useChannelTable();
  const view = health.get(channel.id);
  if (!view) {
    return (
      <Box component="span" sx={{ color: 'text.disabled' }} data-testid={`channel-health-${channel.id}`}>
        —
      </Box>
    );
  }
  const tooltip = view.last_error ? <LastError error={view.last_error} /> : t('health.noError');
  return (
    <Stack spacing={0.25} sx={{ alignItems: 'flex-start' }}>
      <Tooltip title={tooltip}>
        <Chip
          size="small"
          clickable
          label={t(`health.states.${view.state}`)}
          onClick={() => onShowHealth(channel)}
          data-testid={`channel-health-${channel.id}`}
          data-state={view.state}
          aria-label={t('health.open', { name: channel.name })}
          sx={(theme) => toneChip(theme, healthTones[view.state])}
        />
      </Tooltip>
      <Typography
        variant="caption"
        sx={{ color: 'text.secondary', lineHeight: 1.2, fontVariantNumeric: 'tabular-nums' }}
        data-testid={`channel-health-figures-${channel.id}`}
      >
        {view.samples === 0
          ? t('health.noRequests')
          : `${percentOf(view.success_rate)} · ${view.p50_latency_ms === null ? '—' : formatSeconds(view.p50_latency_ms)}`}
      </Typography>
    </Stack>
  );
}
