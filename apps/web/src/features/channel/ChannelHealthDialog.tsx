import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ChannelHealthMinute, ChannelHealthView, ChannelView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, type TooltipContentProps, XAxis, YAxis } from 'recharts';
import { ChartTooltipBox, type TooltipLine, useChartStyle } from '../../components/charts/chartStyle.js';
import { useLastShown } from '../../hooks/useLastShown.js';
import { formatTime } from '../../lib/format.js';
import { formatSeconds, toneChip } from './ChannelCells.js';
import { healthTones, LastError, percentOf } from './ChannelHealthCell.js';
import { useChannelHealthHistory } from './channel.api.js';

/** "14:05" of a Unix-millisecond minute, in the console's time format. */
function clock(at: number): string {
  return formatTime(Math.floor(at / 1000)).slice(11, 16);
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Box>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

const milliseconds = (value: number | null) => (value === null ? '—' : formatSeconds(value));

/** Tries per minute (successes, failures, 429s stacked) and the minute's mean latency as a line. */
function HistoryChart({ minutes }: { minutes: ChannelHealthMinute[] }) {
  const { t } = useTranslation('channel');
  const style = useChartStyle();
  const { palette } = useTheme();
  const series = [
    { key: 'successes', name: t('health.chart.successes'), color: palette.success.main },
    { key: 'failures', name: t('health.chart.failures'), color: palette.error.main },
    { key: 'rate_limited', name: t('health.chart.rateLimited'), color: palette.warning.main },
  ] as const;
  const latencyColor = style.series(0);
  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    const minute = active ? (payload?.[0]?.payload as ChannelHealthMinute | undefined) : undefined;
    if (!minute) return null;
    const lines: TooltipLine[] = series.map((entry) => ({ ...entry, value: String(minute[entry.key]) }));
    lines.push({
      key: 'mean_latency_ms',
      name: t('health.chart.latency'),
      color: latencyColor,
      value: milliseconds(minute.mean_latency_ms),
    });
    return <ChartTooltipBox title={clock(Number(label))} lines={lines} />;
  };
  return (
    <Box data-testid="channel-health-chart" role="img" aria-label={t('health.chart.label')}>
      <ComposedChart
        responsive
        data={minutes}
        style={{ width: '100%', height: 240 }}
        margin={{ top: 8, right: 8, left: 0, bottom: 0 }}
      >
        <CartesianGrid vertical={false} stroke={style.grid} strokeDasharray="3 3" />
        <XAxis
          dataKey="at"
          tickFormatter={clock}
          tick={style.tick}
          axisLine={{ stroke: style.axis }}
          tickLine={false}
          minTickGap={24}
          tickMargin={8}
        />
        <YAxis yAxisId="tries" tick={style.tick} axisLine={false} tickLine={false} width="auto" allowDecimals={false} />
        <YAxis
          yAxisId="latency"
          orientation="right"
          tick={style.tick}
          axisLine={false}
          tickLine={false}
          width="auto"
          tickFormatter={(value: number) => formatSeconds(value)}
        />
        <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
        {series.map((entry) => (
          <Bar
            key={entry.key}
            yAxisId="tries"
            dataKey={entry.key}
            name={entry.name}
            stackId="tries"
            fill={entry.color}
            isAnimationActive={false}
          />
        ))}
        <Line
          yAxisId="latency"
          dataKey="mean_latency_ms"
          name={t('health.chart.latency')}
          stroke={latencyColor}
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
      </ComposedChart>
    </Box>
  );
}

/**
 * One channel's health in detail: the figures of the list, the last error, the last hour by
 * minute and its recent state changes, as the node that answered sees them.
 */
export function ChannelHealthDialog({
  channel: current,
  view,
  onClose,
}: {
  channel: ChannelView | null;
  view: ChannelHealthView | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation('channel');
  // The closing dialog keeps showing the channel it showed.
  const channel = useLastShown(current);
  const history = useChannelHealthHistory(current?.id ?? null);
  const data = history.data;
  return (
    <Dialog open={current !== null} onClose={onClose} fullWidth maxWidth="md" data-testid="channel-health-dialog">
      <DialogTitle>{t('health.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {view && (
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(130px, 1fr))', gap: 1.5 }}>
              <Fact label={t('health.state')} testId="channel-health-state">
                <Chip
                  size="small"
                  label={t(`health.states.${view.state}`)}
                  sx={(theme) => toneChip(theme, healthTones[view.state])}
                />
              </Fact>
              <Fact label={t('health.successRate')} testId="channel-health-rate">
                {percentOf(view.success_rate)} ({t('health.samples', { count: view.samples })})
              </Fact>
              <Fact label={t('health.p50')} testId="channel-health-p50">
                {milliseconds(view.p50_latency_ms)}
              </Fact>
              <Fact label={t('health.p50FirstByte')} testId="channel-health-first-byte">
                {milliseconds(view.p50_first_byte_ms)}
              </Fact>
            </Box>
          )}
          {view?.last_error && (
            <Alert severity="warning" data-testid="channel-health-last-error" sx={{ overflowWrap: 'anywhere' }}>
              <LastError error={view.last_error} />
            </Alert>
          )}
          {data ? <HistoryChart minutes={data.minutes} /> : <Skeleton variant="rounded" height={240} />}
          {data && data.changes.length > 0 && (
            <Box>
              <Typography variant="subtitle2" sx={{ mb: 0.75 }}>
                {t('health.changes')}
              </Typography>
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75 }} data-testid="channel-health-changes">
                {[...data.changes].reverse().map((change) => (
                  <Chip
                    key={`${change.at}-${change.state}`}
                    size="small"
                    label={`${clock(change.at)} ${t(`health.states.${change.state}`)}`}
                    sx={(theme) => toneChip(theme, healthTones[change.state])}
                  />
                ))}
              </Stack>
            </Box>
          )}
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('health.perNode')}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="channel-health-close">
          {t('health.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
