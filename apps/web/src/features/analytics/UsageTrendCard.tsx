import { useTranslation } from 'react-i18next';
import { UsageTrendCard as TrendCard } from '../../components/charts/UsageTrendCard.js';
import { useWords } from '../../i18n/useWords.js';
import { ChartEmpty, useLatencyFormat } from './AnalyticsCard.js';
import { averageLatency, type DayUsage, type UsageTotals } from './series.js';

/** Quota, requests or tokens per day of the period, under the period's totals and average response time. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('analytics');
  const words = useWords('analytics', 'usageTrend');
  const formatLatency = useLatencyFormat();

  return (
    <TrendCard
      words={words}
      chartLabel={(metric) => t('trend.chartLabel', { metric })}
      days={days}
      totals={totals}
      moreFigures={[
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
      screen="analytics"
    />
  );
}
