import type { DashboardRow } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../components/charts/ChartCard.js';
import { MetricToggle } from '../../components/charts/MetricToggle.js';
import { UsageBreakdownGrid } from '../../components/charts/UsageBreakdownGrid.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { useMetricText } from './DashboardCard.js';
import { DASHBOARD_AXES } from './dayAxes.js';
import { type LabelSeries, modelDayData, modelSeries, type UsageMetric, usageByModel } from './usage.js';

interface ModelUsageCardProps {
  rows: readonly DashboardRow[];
  days: readonly string[];
}

/** The eight days stacked by model, beside each model's share of the period. */
export function ModelUsageCard({ rows, days }: ModelUsageCardProps) {
  const { t } = useTranslation('dashboard');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const format = useMetricFormat();
  const metricText = useMetricText();

  const models = useMemo(() => usageByModel(rows), [rows]);
  const series = useMemo(() => modelSeries(models, metric), [models, metric]);
  const data = useMemo(() => modelDayData(rows, days, series, metric), [rows, days, series, metric]);
  const nameOf = (entry: LabelSeries) => entry.label ?? t('models.other');

  return (
    <ChartCard
      title={t('models.title')}
      subtitle={t('models.subtitle')}
      action={<MetricToggle value={metric} onChange={setMetric} testId="dashboard-models-metric" text={metricText} />}
      testId="dashboard-models"
    >
      <UsageBreakdownGrid
        labels={models}
        series={series}
        data={data}
        metric={metric}
        format={format}
        nameOf={nameOf}
        detailOf={(figures) =>
          t('models.rowDetail', {
            requests: t('models.requestCount', { count: figures.requestCount, value: figures.requests }),
            tokens: t('models.tokenCount', { count: figures.tokenCount, value: figures.tokens }),
            quota: figures.quota,
          })
        }
        chart={{
          stackId: 'models',
          height: 280,
          ariaLabel: t('models.chartLabel', { metric: t(`metric.${metric}`) }),
          axisLayout: DASHBOARD_AXES,
        }}
        list={{
          label: t('models.listLabel'),
          itemTestId: (model) => `dashboard-model-${model}`,
          valueTestId: (model) => `dashboard-model-value-${model}`,
        }}
      />
    </ChartCard>
  );
}
