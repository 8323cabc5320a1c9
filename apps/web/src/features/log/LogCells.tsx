import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { LogType, type LogView, logEventOf, tokensPerSecond } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { chipTint } from '../../components/StateChip.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { logEventText } from './logEventText.js';

/** The theme's monospace stack, under the name this feature's cells use. */
export const monospace = monospaceFontStack;

const typeColors = {
  [LogType.topup]: 'success',
  [LogType.consume]: 'primary',
  [LogType.manage]: 'warning',
  [LogType.system]: 'info',
  [LogType.error]: 'error',
} as const;

export function LogTypeChip({ type, testId }: { type: number; testId?: string }) {
  const { t } = useTranslation('log');
  const color = typeColors[type as keyof typeof typeColors] ?? 'secondary';
  const known = type in typeColors;
  return (
    <Chip
      size="small"
      label={known ? t(`types.${type}`) : t('types.unknown')}
      data-testid={testId}
      data-type={type}
      sx={(theme) => ({
        height: 22,
        fontWeight: 600,
        fontSize: '0.75rem',
        ...chipTint(theme, color, false),
      })}
    />
  );
}

const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(2);

/** Total time with the stream flag, and the time to the first token of a stream underneath. */
export function DurationCell({ log }: { log: LogView }) {
  const { t } = useTranslation('log');
  // A failed request's time says how long the client waited (a timeout shows as such).
  if (log.type !== LogType.consume && log.type !== LogType.error) return <Muted />;
  const firstResponse = Number(log.metadata.first_response);
  return (
    <Box data-testid={`log-duration-${log.id}`}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" component="span">
          {t('units.seconds', { value: seconds(log.request_time) })}
        </Typography>
        {log.is_stream && (
          <Chip
            size="small"
            variant="outlined"
            color="info"
            label={t('stream.yes')}
            data-testid={`log-stream-${log.id}`}
            sx={{ height: 18, fontSize: '0.6875rem', '& .MuiChip-label': { px: 0.75 } }}
          />
        )}
      </Stack>
      {log.is_stream && firstResponse > 0 && (
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          {t('firstToken', { value: seconds(firstResponse) })}
        </Typography>
      )}
    </Box>
  );
}

/** Output tokens over the whole request time (spec §9). */
export function SpeedCell({ log }: { log: LogView }) {
  const { t } = useTranslation('log');
  const speed = tokensPerSecond(log.completion_tokens, log.request_time);
  if (log.type !== LogType.consume || speed === 0) return <Muted />;
  return (
    <Typography variant="body2" component="span" data-testid={`log-speed-${log.id}`}>
      {t('units.speed', { value: speed.toFixed(1) })}
    </Typography>
  );
}

export function RequestIdCell({ log }: { log: LogView }) {
  const { t } = useTranslation('log');
  if (!log.request_id) return <Muted />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, minWidth: 0 }}>
      <Typography
        variant="caption"
        noWrap
        title={log.request_id}
        sx={{ fontFamily: monospace, maxWidth: 128, color: 'text.secondary' }}
        data-testid={`log-request-id-${log.id}`}
      >
        {log.request_id}
      </Typography>
      <Tooltip title={t('copyRequestId')}>
        <IconButton
          size="small"
          aria-label={t('copyRequestId')}
          onClick={() => void copyToClipboard(log.request_id, t('requestId'))}
          data-testid={`log-copy-request-${log.id}`}
        >
          <ContentCopy sx={{ fontSize: 15 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

export function GroupCell({ log }: { log: LogView }) {
  const { t } = useTranslation('log');
  const group = typeof log.metadata.group_name === 'string' ? log.metadata.group_name : '';
  if (!group) return <Muted />;
  return (
    <Box>
      <Typography variant="body2">{group}</Typography>
      {log.metadata.is_backup_group === true && (
        <Typography variant="caption" sx={{ color: 'warning.main', display: 'block' }}>
          {t('backupGroup')}
        </Typography>
      )}
    </Box>
  );
}

/**
 * What the row is about: for top-ups, gifts and refunds the server's event in the reader's language
 * (the stored One Hub text when the row has none), the price applied for consumption.
 */
export function DetailCell({ log }: { log: LogView }) {
  const { t } = useTranslation('log');
  const formatQuota = useQuotaFormatter();
  const { metadata } = log;
  const event = logEventOf(metadata);
  let text = event ? logEventText(event, t, (quota) => formatQuota(quota)) : log.content;
  if (!text && log.type === LogType.consume && metadata.input_ratio !== undefined) {
    const group = metadata.group_ratio ?? 1;
    text =
      metadata.price_type === 'times'
        ? t('detail.perCall', { input: metadata.input_ratio, group })
        : t('detail.ratios', { input: metadata.input_ratio, output: metadata.output_ratio ?? 0, group });
  }
  if (!text) return <Muted />;
  return (
    <Typography
      variant="body2"
      title={text}
      sx={{
        color: log.type === LogType.error ? 'error.main' : 'text.secondary',
        // Two lines rather than one long one keep the table within a wide screen.
        maxWidth: 220,
        whiteSpace: 'normal',
        display: '-webkit-box',
        WebkitLineClamp: 2,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
      }}
      data-testid={`log-detail-${log.id}`}
    >
      {text}
    </Typography>
  );
}

export function Muted() {
  return (
    <Box component="span" sx={{ color: 'text.disabled' }}>
      –
    </Box>
  );
}

/** A number that opens the token breakdown. */
export function TokenCount({
  value,
  onOpen,
  testId,
}: {
  value: number;
  onOpen(anchor: HTMLElement): void;
  testId: string;
}) {
  const { t } = useTranslation('log');
  return (
    <ButtonBase
      onClick={(event) => onOpen(event.currentTarget)}
      aria-label={t('breakdown.open')}
      data-testid={testId}
      sx={{
        font: 'inherit',
        fontVariantNumeric: 'tabular-nums',
        borderRadius: 0.5,
        px: 0.5,
        mx: -0.5,
        textDecoration: 'underline dotted',
        textUnderlineOffset: 3,
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      {value.toLocaleString()}
    </ButtonBase>
  );
}
