import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { alpha, type Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ChannelStatus, type ChannelView, formatMoney, splitChannelList } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { chipTint } from '../../components/StateChip.js';
import { formatTime } from '../../lib/format.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import type { ChannelTestResult } from './channel.api.js';

/** The theme's monospace stack, under the name this feature's cells use. */
export const monospace = monospaceFontStack;

type Tone = 'success' | 'info' | 'warning' | 'error' | 'secondary';

/** A small tinted chip in one of the palette's colours, readable in light and dark mode. */
export function toneChip(theme: Theme, tone: Tone) {
  return {
    height: 22,
    fontWeight: 600,
    fontSize: '0.75rem',
    ...chipTint(theme, tone),
    '& .MuiChip-label': { px: 0.875 },
  };
}

export type ChannelState = 'enabled' | 'disabled' | 'autoDisabled' | 'unknown';

export function channelState(status: number): ChannelState {
  if (status === ChannelStatus.enabled) return 'enabled';
  if (status === ChannelStatus.manuallyDisabled) return 'disabled';
  if (status === ChannelStatus.autoDisabled) return 'autoDisabled';
  return 'unknown';
}

const stateTones: Record<ChannelState, Tone> = {
  enabled: 'success',
  disabled: 'secondary',
  autoDisabled: 'error',
  unknown: 'warning',
};

export function ChannelStatusChip({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('channel');
  const state = channelState(status);
  return (
    <Tooltip title={t(`statusHint.${state}`)}>
      <Chip
        size="small"
        label={t(`status.${state}`)}
        data-testid={testId}
        data-state={state}
        sx={(theme) => toneChip(theme, stateTones[state])}
      />
    </Tooltip>
  );
}

/** Colour of a response time: green under 1 s, blue under 3 s, amber under 5 s, red beyond. */
export function speedTone(milliseconds: number): Tone {
  if (milliseconds <= 0) return 'secondary';
  if (milliseconds < 1000) return 'success';
  if (milliseconds < 3000) return 'info';
  if (milliseconds < 5000) return 'warning';
  return 'error';
}

/** `MM-DD HH:mm` of a Unix time: enough in a dense column, the full time is in the tooltip. */
export function shortTime(seconds: number): string {
  return formatTime(seconds).slice(5, 16);
}

export function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

/** The last test: its time (coloured by speed) and when it ran; a failed test of this visit in red. */
export function ResponseTime({ channel, result }: { channel: ChannelView; result?: ChannelTestResult }) {
  const { t } = useTranslation('channel');
  const failed = result && !result.success;
  const milliseconds = result?.success ? Math.round(result.time * 1000) : channel.response_time;
  const tested = channel.test_time > 0;
  let chip = (
    <Chip
      size="small"
      label={tested || result ? formatSeconds(milliseconds) : t('notTested')}
      data-testid={`channel-response-${channel.id}`}
      data-tone={speedTone(milliseconds)}
      sx={(theme) => ({ ...toneChip(theme, speedTone(milliseconds)), fontVariantNumeric: 'tabular-nums' })}
    />
  );
  if (failed) {
    chip = (
      <Tooltip title={result.message || t('test.failed')}>
        <Chip
          size="small"
          label={t('test.failedShort', { time: result.time.toFixed(2) })}
          data-testid={`channel-response-${channel.id}`}
          data-tone="error"
          sx={(theme) => toneChip(theme, 'error')}
        />
      </Tooltip>
    );
  }
  return (
    <Stack spacing={0.25} sx={{ alignItems: 'flex-start' }}>
      {chip}
      <Typography
        variant="caption"
        sx={{ color: 'text.secondary', lineHeight: 1.2 }}
        title={tested ? t('testedAt', { time: formatTime(channel.test_time) }) : undefined}
      >
        {tested ? (
          <Box
            component="time"
            dateTime={new Date(channel.test_time * 1000).toISOString()}
            data-testid={`channel-tested-${channel.id}`}
          >
            {shortTime(channel.test_time)}
          </Box>
        ) : (
          '—'
        )}
      </Typography>
    </Stack>
  );
}

/** Group symbols as chips; past `max`, a "+N" chip lists the rest in its tooltip. */
export function GroupChips({ groups, max = 2, testId }: { groups: string; max?: number; testId?: string }) {
  const list = splitChannelList(groups);
  const shown = list.slice(0, max);
  const rest = list.slice(max);
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'nowrap' }} data-testid={testId}>
      {shown.map((group) => (
        <Chip key={group} size="small" variant="outlined" label={group} sx={{ height: 22, fontSize: '0.75rem' }} />
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.join(', ')}>
          <Chip size="small" label={`+${rest.length}`} sx={{ height: 22, fontSize: '0.75rem' }} />
        </Tooltip>
      )}
    </Stack>
  );
}

export function TagChip({ tag, testId }: { tag: string; testId?: string }) {
  if (!tag) {
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        —
      </Box>
    );
  }
  return (
    <Chip
      size="small"
      label={tag}
      data-testid={testId}
      sx={(theme) => ({
        height: 22,
        fontSize: '0.75rem',
        fontWeight: 600,
        color: theme.palette.primary.main,
        bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.16 : 0.08),
      })}
    />
  );
}

/** The vendor balance in dollars, and when it was read. */
export function Balance({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  if (!channel.balance_updated_time) {
    return (
      <Box component="span" sx={{ color: 'text.disabled' }} data-testid={`channel-balance-${channel.id}`}>
        —
      </Box>
    );
  }
  return (
    <Box
      component="span"
      title={t('balanceAt', { time: formatTime(channel.balance_updated_time) })}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.375,
        fontVariantNumeric: 'tabular-nums',
        color: channel.balance <= 0 ? 'error.main' : 'success.main',
      }}
    >
      <AccountBalanceWalletOutlined sx={{ fontSize: 12, opacity: 0.8 }} />
      <span data-testid={`channel-balance-${channel.id}`}>{formatMoney(channel.balance)}</span>
    </Box>
  );
}
