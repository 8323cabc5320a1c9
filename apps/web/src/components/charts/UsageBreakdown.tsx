import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Bar, BarChart, Tooltip, type TooltipContentProps } from 'recharts';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { type LabelSeries, type LabelUsage, metricValue, type UsageMetric } from '../../lib/usage.js';
import { ChartTooltipBox, dayAxes, useChartStyle } from './chartStyle.js';

/** The colour of a series: the palette's by position, grey for "all the others". */
export function useSeriesColor(): (entry: LabelSeries, index: number) => string {
  const style = useChartStyle();
  return (entry, index) => (entry.label === null ? style.other : style.series(index));
}

interface StackedUsageChartProps {
  data: Array<Record<string, string | number>>;
  series: readonly LabelSeries[];
  metric: UsageMetric;
  /** The series' display name ("other" is the caller's text). */
  nameOf: (entry: LabelSeries) => string;
  formatFull: (value: number) => string;
  formatTick: (value: number) => string;
  stackId: string;
  height: number;
  ariaLabel: string;
  axisLayout?: { minTickGap?: number };
}

/** Bars per day, stacked by entry (model, channel, owner), with a tooltip of the non-zero parts. */
export function StackedUsageChart({
  data,
  series,
  metric,
  nameOf,
  formatFull,
  formatTick,
  stackId,
  height,
  ariaLabel,
  axisLayout,
}: StackedUsageChartProps) {
  const style = useChartStyle();
  // Raw quota is a whole number; only money has fractions worth a tick.
  const { displayInCurrency } = useQuotaFormatter();
  const colorOf = useSeriesColor();

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const lines = series
      .map((entry, index) => ({
        key: entry.key,
        color: colorOf(entry, index),
        name: nameOf(entry),
        amount: Number(payload.find((item) => item.dataKey === entry.key)?.value ?? 0),
      }))
      .filter((line) => line.amount > 0)
      .map(({ amount, ...line }) => ({ ...line, value: formatFull(amount) }));
    if (lines.length === 0) return null;
    return <ChartTooltipBox title={String(label ?? '')} lines={lines} />;
  };

  return (
    <Box role="img" aria-label={ariaLabel}>
      <BarChart
        responsive
        data={data}
        style={{ width: '100%', height }}
        margin={{ top: 8, right: 20, left: 0, bottom: 0 }}
      >
        {dayAxes(style, formatTick, metric === 'quota' && displayInCurrency, axisLayout)}
        <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
        {series.map((entry, index) => (
          <Bar
            key={entry.key}
            dataKey={entry.key}
            name={nameOf(entry)}
            stackId={stackId}
            fill={colorOf(entry, index)}
            maxBarSize={36}
            radius={index === series.length - 1 ? [4, 4, 0, 0] : 0}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </Box>
  );
}

interface UsageShareListProps {
  labels: readonly LabelUsage[];
  metric: UsageMetric;
  series: readonly LabelSeries[];
  formatFull: (metric: UsageMetric, value: number) => string;
  /** The small line under an entry (requests, tokens, quota), in the caller's words. */
  detailOf: (entry: LabelUsage) => string;
  listLabel: string;
  /** `data-testid` of an entry and of its value. */
  itemTestId: (label: string) => string;
  valueTestId: (label: string) => string;
  /** Scroll inside the card past this height (long lists of channels). */
  maxHeight?: number;
}

/** Every entry of the period with its figure and share; the chart's colours mark the named ones. */
export function UsageShareList({
  labels,
  metric,
  series,
  formatFull,
  detailOf,
  listLabel,
  itemTestId,
  valueTestId,
  maxHeight,
}: UsageShareListProps) {
  const colorOf = useSeriesColor();
  const total = labels.reduce((sum, entry) => sum + metricValue(entry, metric), 0);
  const ranked = [...labels].sort((left, right) => metricValue(right, metric) - metricValue(left, metric));
  const otherIndex = series.findIndex((entry) => entry.label === null);
  const colorFor = (label: string) => {
    const index = series.findIndex((entry) => entry.label === label);
    if (index >= 0) return colorOf(series[index] as LabelSeries, index);
    return otherIndex >= 0 ? colorOf(series[otherIndex] as LabelSeries, otherIndex) : 'transparent';
  };

  return (
    <Box
      component="ul"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gap: 1.75,
        ...(maxHeight === undefined ? {} : { maxHeight, overflowY: 'auto', pr: 0.5 }),
      }}
      aria-label={listLabel}
    >
      {ranked.map((entry) => {
        const value = metricValue(entry, metric);
        const share = total > 0 ? (value / total) * 100 : 0;
        return (
          <Box component="li" key={entry.label} data-testid={itemTestId(entry.label)}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Box sx={{ width: 10, height: 10, borderRadius: '3px', bgcolor: colorFor(entry.label), flexShrink: 0 }} />
              <Typography variant="body2" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }} noWrap title={entry.label}>
                {entry.label}
              </Typography>
              <Typography
                variant="body2"
                sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
                data-testid={valueTestId(entry.label)}
              >
                {formatFull(metric, value)}
              </Typography>
              <Typography
                variant="caption"
                sx={{ color: 'text.secondary', width: 44, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}
              >
                {`${share.toFixed(share > 0 && share < 10 ? 1 : 0)}%`}
              </Typography>
            </Box>
            <Box sx={{ mt: 0.75, height: 6, borderRadius: 3, bgcolor: 'action.hover', overflow: 'hidden' }}>
              <Box sx={{ width: `${share}%`, height: '100%', borderRadius: 3, bgcolor: colorFor(entry.label) }} />
            </Box>
            <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mt: 0.5 }} noWrap>
              {detailOf(entry)}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}
