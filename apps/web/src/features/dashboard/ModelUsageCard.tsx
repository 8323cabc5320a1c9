import Grid from '@mui/material/Grid';
import type { DashboardRow } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard } from '../../components/charts/ChartCard.js';
import { StackedUsageChart, UsageShareList } from '../../components/charts/UsageBreakdown.js';
import { MetricToggle } from './DashboardCard.js';
import { DASHBOARD_AXES } from './dayAxes.js';
import { type LabelSeries, modelDayData, modelSeries, type UsageMetric, usageByModel } from './usage.js';
import { useMetricFormat } from './useMetricFormat.js';

interface ModelUsageCardProps {
  rows: readonly DashboardRow[];
  days: readonly string[];
}

/** The eight days stacked by model, beside each model's share of the period. */
export function ModelUsageCard({ rows, days }: ModelUsageCardProps) {
  const { t } = useTranslation('dashboard');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const format = useMetricFormat();

  const models = useMemo(() => usageByModel(rows), [rows]);
  const series = useMemo(() => modelSeries(models, metric), [models, metric]);
  const data = useMemo(() => modelDayData(rows, days, series, metric), [rows, days, series, metric]);
  const nameOf = (entry: LabelSeries) => entry.label ?? t('models.other');

  return (
    <ChartCard
      title={t('models.title')}
      subtitle={t('models.subtitle')}
      action={<MetricToggle value={metric} onChange={setMetric} testId="dashboard-models-metric" />}
      testId="dashboard-models"
    >
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <StackedUsageChart
            data={data}
            series={series}
            metric={metric}
            nameOf={nameOf}
            formatFull={(value) => format.full(metric, value)}
            formatTick={(value) => format.short(metric, value)}
            stackId="models"
            height={280}
            ariaLabel={t('models.chartLabel', { metric: t(`metric.${metric}`) })}
            axisLayout={DASHBOARD_AXES}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <UsageShareList
            labels={models}
            metric={metric}
            series={series}
            formatFull={format.full}
            detailOf={(model) =>
              t('models.rowDetail', {
                requests: model.requests.toLocaleString(),
                tokens: model.tokens.toLocaleString(),
                quota: format.full('quota', model.quota),
              })
            }
            listLabel={t('models.listLabel')}
            itemTestId={(model) => `dashboard-model-${model}`}
            valueTestId={(model) => `dashboard-model-value-${model}`}
          />
        </Grid>
      </Grid>
    </ChartCard>
  );
}
