import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, ChartFigure } from '../../components/charts/ChartCard.js';
import { UsageTrendChart } from '../../components/charts/UsageTrendChart.js';
import { ChartEmpty, MetricToggle, useLatencyFormat, useMetricFormat } from './AnalyticsCard.js';
import { averageLatency, type DayUsage, type UsageMetric, type UsageTotals } from './series.js';

/** Quota, requests or tokens per day of the period, under the period's totals. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('analytics');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const format = useMetricFormat();
  const formatLatency = useLatencyFormat();

  return (
    <ChartCard
      title={t('trend.title')}
      subtitle={t('trend.subtitle')}
      action={<MetricToggle value={metric} onChange={setMetric} testId="analytics-trend-metric" />}
      testId="analytics-trend"
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
          gap: 2,
          mb: 2,
          pb: 2,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <ChartFigure
          label={t('trend.quota')}
          value={format.full('quota', totals.quota)}
          testId="analytics-period-quota"
        />
        <ChartFigure
          label={t('trend.requests')}
          value={format.full('requests', totals.requests)}
          testId="analytics-period-requests"
        />
        <ChartFigure
          label={t('trend.tokens')}
          value={format.full('tokens', totals.tokens)}
          testId="analytics-period-tokens"
        />
        <ChartFigure
          label={t('trend.latency')}
          value={totals.requests > 0 ? formatLatency(averageLatency(totals)) : '—'}
          testId="analytics-period-latency"
        />
      </Box>
      {totals.requests === 0 ? (
        <ChartEmpty title={t('empty.usageTitle')} description={t('empty.usage')} testId="analytics-trend-empty" />
      ) : (
        <UsageTrendChart
          days={days}
          metric={metric}
          names={{
            metric: t(`metric.${metric}`),
            promptTokens: t('metric.promptTokens'),
            completionTokens: t('metric.completionTokens'),
          }}
          formatFull={(value) => format.full(metric, value)}
          formatTick={(value) => format.short(metric, value)}
          ariaLabel={t('trend.chartLabel', { metric: t(`metric.${metric}`) })}
          testId="analytics-trend-chart"
        />
      )}
    </ChartCard>
  );
}
