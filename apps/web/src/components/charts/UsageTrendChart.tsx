import Box from '@mui/material/Box';
import { useId } from 'react';
import { Area, AreaChart, Tooltip, type TooltipContentProps } from 'recharts';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import type { DayUsage, UsageMetric } from '../../lib/usage.js';
import { ChartTooltipBox, dayAxes, useChartStyle } from './chartStyle.js';

interface TrendSeries {
  key: keyof DayUsage;
  name: string;
  color: string;
}

interface UsageTrendChartProps {
  days: readonly DayUsage[];
  metric: UsageMetric;
  /** Display names: the metric's, and the two halves of "tokens". */
  names: { metric: string; promptTokens: string; completionTokens: string };
  formatFull: (value: number) => string;
  formatTick: (value: number) => string;
  ariaLabel: string;
  testId: string;
  axisLayout?: { minTickGap?: number };
}

/** Quota, requests or tokens (input stacked under output) per day, as filled areas. */
export function UsageTrendChart({
  days,
  metric,
  names,
  formatFull,
  formatTick,
  ariaLabel,
  testId,
  axisLayout,
}: UsageTrendChartProps) {
  const style = useChartStyle();
  // Raw quota is a whole number; only money has fractions worth a tick.
  const { displayInCurrency } = useQuotaFormatter();
  const gradientId = useId().replace(/:/g, '');

  const series: TrendSeries[] =
    metric === 'tokens'
      ? [
          { key: 'promptTokens', name: names.promptTokens, color: style.series(0) },
          { key: 'completionTokens', name: names.completionTokens, color: style.series(1) },
        ]
      : [{ key: metric === 'quota' ? 'quota' : 'requests', name: names.metric, color: style.series(0) }];

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const lines = series.map((entry) => ({
      key: entry.key,
      color: entry.color,
      name: entry.name,
      value: formatFull(Number(payload.find((item) => item.dataKey === entry.key)?.value ?? 0)),
    }));
    return <ChartTooltipBox title={String(label ?? '')} lines={lines} />;
  };

  return (
    <Box data-testid={testId} role="img" aria-label={ariaLabel}>
      <AreaChart
        responsive
        data={[...days]}
        style={{ width: '100%', height: 260 }}
        margin={{ top: 8, right: 20, left: 0, bottom: 0 }}
      >
        <defs>
          {series.map((entry) => (
            <linearGradient key={entry.key} id={`${gradientId}-${entry.key}`} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={entry.color} stopOpacity={0.32} />
              <stop offset="100%" stopColor={entry.color} stopOpacity={0.02} />
            </linearGradient>
          ))}
        </defs>
        {dayAxes(style, formatTick, metric === 'quota' && displayInCurrency, axisLayout)}
        <Tooltip content={renderTooltip} cursor={{ stroke: style.axis }} />
        {series.map((entry) => (
          <Area
            key={entry.key}
            type="linear"
            dataKey={entry.key}
            name={entry.name}
            stackId={metric === 'tokens' ? 'tokens' : undefined}
            stroke={entry.color}
            strokeWidth={2}
            fill={`url(#${gradientId}-${entry.key})`}
            dot={days.length <= 2 ? { r: 3, strokeWidth: 0, fill: entry.color } : false}
            activeDot={{ r: 4, strokeWidth: 0 }}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </Box>
  );
}
