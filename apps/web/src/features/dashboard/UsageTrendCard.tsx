import { useTranslation } from 'react-i18next';
import { UsageTrendCard as TrendCard } from '../../components/charts/UsageTrendCard.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { useMetricText } from './DashboardCard.js';
import { DASHBOARD_AXES } from './dayAxes.js';
import type { DayUsage, UsageTotals } from './usage.js';

/** Quota, requests or tokens per day over the dashboard's eight days, with the period's totals. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('dashboard');
  const format = useMetricFormat();
  const text = useMetricText();

  return (
    <TrendCard
      title={t('trend.title')}
      subtitle={t('trend.subtitle')}
      text={text}
      chartLabel={(metric) => t('trend.chartLabel', { metric })}
      days={days}
      figures={[
        { label: t('trend.periodQuota'), value: format.full('quota', totals.quota), testId: 'dashboard-period-quota' },
        {
          label: t('trend.periodRequests'),
          value: format.full('requests', totals.requests),
          testId: 'dashboard-period-requests',
        },
        {
          label: t('trend.periodTokens'),
          value: format.full('tokens', totals.tokens),
          testId: 'dashboard-period-tokens',
        },
      ]}
      figureColumns="repeat(3, minmax(0, 1fr))"
      axisLayout={DASHBOARD_AXES}
      testId="dashboard-trend"
    />
  );
}
