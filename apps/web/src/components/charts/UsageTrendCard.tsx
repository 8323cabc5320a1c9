import Box from '@mui/material/Box';
import { type ReactNode, useState } from 'react';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import type { Words, wordSets } from '../../i18n/wordSets.js';
import { type DayUsage, USAGE_METRICS, type UsageMetric } from '../../lib/usage.js';
import { ChartCard, ChartFigure } from './ChartCard.js';
import { type MetricText, MetricToggle } from './MetricToggle.js';
import { UsageTrendChart } from './UsageTrendChart.js';

interface UsageTrendCardProps {
  /** The screen's words: `useWords('<namespace>', 'usageTrend')`. */
  words: Words<typeof wordSets.usageTrend>;
  /** The chart's accessible name for the metric shown (given by its name). */
  chartLabel(metricName: string): string;
  days: DayUsage[];
  /** The period's totals, in a row above the chart (`<screen>-period-quota`, …), then any further figures. */
  totals: Record<UsageMetric, number>;
  moreFigures?: ReadonlyArray<{ label: string; value: string; testId: string }>;
  /** The totals' grid columns, for every screen width or per breakpoint. */
  figureColumns: string | Partial<Record<'xs' | 'sm' | 'md', string>>;
  /** Shown in place of the chart when set, for a period with nothing to plot. */
  empty?: ReactNode;
  axisLayout?: { minTickGap?: number };
  /** The card is `<screen>-trend`; its switch and chart `<screen>-trend-metric` and `-chart`. */
  screen: string;
}

/** Quota, requests or tokens per day (the user picks which), under the period's totals. */
export function UsageTrendCard({
  words,
  chartLabel,
  days,
  totals,
  moreFigures = [],
  figureColumns,
  empty,
  axisLayout,
  screen,
}: UsageTrendCardProps) {
  const format = useMetricFormat();
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const text: MetricText = { label: words.metric.label, nameOf: (name) => words.metric[name] };
  const figures = [
    ...USAGE_METRICS.map((name) => ({
      label: words[name],
      value: format.full(name, totals[name]),
      testId: `${screen}-period-${name}`,
    })),
    ...moreFigures,
  ];
  const testId = `${screen}-trend`;
  return (
    <ChartCard
      title={words.title}
      subtitle={words.subtitle}
      action={<MetricToggle value={metric} onChange={setMetric} testId={`${testId}-metric`} text={text} />}
      testId={testId}
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: figureColumns,
          gap: 2,
          mb: 2,
          pb: 2,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        {figures.map((figure) => (
          <ChartFigure key={figure.testId} {...figure} />
        ))}
      </Box>
      {empty ?? (
        <UsageTrendChart
          days={days}
          metric={metric}
          names={{
            metric: text.nameOf(metric),
            promptTokens: text.nameOf('promptTokens'),
            completionTokens: text.nameOf('completionTokens'),
          }}
          formatFull={(value) => format.full(metric, value)}
          formatTick={(value) => format.short(metric, value)}
          ariaLabel={chartLabel(text.nameOf(metric))}
          testId={`${testId}-chart`}
          axisLayout={axisLayout}
        />
      )}
    </ChartCard>
  );
}
