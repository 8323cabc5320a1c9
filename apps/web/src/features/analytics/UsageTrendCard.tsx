import { useTranslation } from 'react-i18next';
import { UsageTrendCard as TrendCard } from '../../components/charts/UsageTrendCard.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { ChartEmpty, useLatencyFormat, useMetricText } from './AnalyticsCard.js';
import { averageLatency, type DayUsage, type UsageTotals } from './series.js';

/** Quota, requests or tokens per day of the period, under the period's totals. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('analytics');
  const format = useMetricFormat();
  const text = useMetricText();
  const formatLatency = useLatencyFormat();

  return (
    <TrendCard
      title={t('trend.title')}
      subtitle={t('trend.subtitle')}
      text={text}
      chartLabel={(metric) => t('trend.chartLabel', { metric })}
      days={days}
      figures={[
        { label: t('trend.quota'), value: format.full('quota', totals.quota), testId: 'analytics-period-quota' },
        {
          label: t('trend.requests'),
          value: format.full('requests', totals.requests),
          testId: 'analytics-period-requests',
        },
        { label: t('trend.tokens'), value: format.full('tokens', totals.tokens), testId: 'analytics-period-tokens' },
        {
          label: t('trend.latency'),
          value: totals.requests > 0 ? formatLatency(averageLatency(totals)) : '—',
          testId: 'analytics-period-latency',
        },
      ]}
      figureColumns={{ xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' }}
      empty={
        totals.requests === 0 ? (
          <ChartEmpty title={t('empty.usageTitle')} description={t('empty.usage')} testId="analytics-trend-empty" />
        ) : undefined
      }
      testId="analytics-trend"
    />
  );
}
