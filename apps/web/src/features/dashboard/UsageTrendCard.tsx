import Box from '@mui/material/Box';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, ChartFigure } from '../../components/charts/ChartCard.js';
import { UsageTrendChart } from '../../components/charts/UsageTrendChart.js';
import { MetricToggle } from './DashboardCard.js';
import { DASHBOARD_AXES } from './dayAxes.js';
import type { DayUsage, UsageMetric, UsageTotals } from './usage.js';
import { useMetricFormat } from './useMetricFormat.js';

/** Quota, requests or tokens per day over the dashboard's eight days, with the period's totals. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('dashboard');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const format = useMetricFormat();

  return (
    <ChartCard
      title={t('trend.title')}
      subtitle={t('trend.subtitle')}
      action={<MetricToggle value={metric} onChange={setMetric} testId="dashboard-trend-metric" />}
      testId="dashboard-trend"
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
          gap: 2,
          mb: 2,
          pb: 2,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <ChartFigure
          label={t('trend.periodQuota')}
          value={format.full('quota', totals.quota)}
          testId="dashboard-period-quota"
        />
        <ChartFigure
          label={t('trend.periodRequests')}
          value={format.full('requests', totals.requests)}
          testId="dashboard-period-requests"
        />
        <ChartFigure
          label={t('trend.periodTokens')}
          value={format.full('tokens', totals.tokens)}
          testId="dashboard-period-tokens"
        />
      </Box>
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
        testId="dashboard-trend-chart"
        axisLayout={DASHBOARD_AXES}
      />
    </ChartCard>
  );
}
