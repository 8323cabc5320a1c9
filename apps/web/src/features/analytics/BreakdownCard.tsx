import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import type { PeriodUsageRow } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, ChoiceToggle } from '../../components/charts/ChartCard.js';
import { StackedUsageChart, UsageShareList } from '../../components/charts/UsageBreakdown.js';
import { ChartEmpty, MetricToggle, useMetricFormat } from './AnalyticsCard.js';
import {
  GROUP_TYPES,
  type GroupType,
  type LabelSeries,
  labelSeries,
  stackedDayData,
  type UsageMetric,
  usageByLabel,
} from './series.js';

interface BreakdownCardProps {
  rows: readonly PeriodUsageRow[];
  days: readonly string[];
  groupType: GroupType;
  onGroupType(groupType: GroupType): void;
  /** The rows shown are the previous grouping's while the new one loads. */
  switching: boolean;
}

/** Each day stacked by model, channel or model owner, beside every entry's share of the period. */
export function BreakdownCard({ rows, days, groupType, onGroupType, switching }: BreakdownCardProps) {
  const { t } = useTranslation('analytics');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const format = useMetricFormat();

  const labels = useMemo(() => usageByLabel(rows), [rows]);
  const series = useMemo(() => labelSeries(labels, metric), [labels, metric]);
  const data = useMemo(() => stackedDayData(rows, days, series, metric), [rows, days, series, metric]);
  const nameOf = (entry: LabelSeries) => entry.label ?? t('breakdown.other');

  return (
    <ChartCard
      title={t('breakdown.title')}
      subtitle={t(`breakdown.subtitle.${groupType}`)}
      action={
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <ChoiceToggle
            value={groupType}
            options={GROUP_TYPES}
            labelOf={(option) => t(`breakdown.group.${option}`)}
            onChange={onGroupType}
            label={t('breakdown.groupLabel')}
            testId="analytics-breakdown-group"
          />
          <MetricToggle value={metric} onChange={setMetric} testId="analytics-breakdown-metric" />
        </Stack>
      }
      testId="analytics-breakdown"
    >
      <Box sx={{ height: 2, mb: 1 }}>{switching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {labels.length === 0 ? (
        <ChartEmpty title={t('empty.usageTitle')} description={t('empty.usage')} testId="analytics-breakdown-empty" />
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 7 }}>
            <StackedUsageChart
              data={data}
              series={series}
              metric={metric}
              nameOf={nameOf}
              formatFull={(value) => format.full(metric, value)}
              formatTick={(value) => format.short(metric, value)}
              stackId="breakdown"
              height={300}
              ariaLabel={t('breakdown.chartLabel', { metric: t(`metric.${metric}`) })}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <UsageShareList
              labels={labels}
              metric={metric}
              series={series}
              formatFull={format.full}
              detailOf={(entry) =>
                t('breakdown.rowDetail', {
                  requests: entry.requests.toLocaleString(),
                  tokens: entry.tokens.toLocaleString(),
                  quota: format.full('quota', entry.quota),
                })
              }
              listLabel={t('breakdown.listLabel')}
              itemTestId={(label) => `analytics-breakdown-item-${label}`}
              valueTestId={(label) => `analytics-breakdown-value-${label}`}
              maxHeight={320}
            />
          </Grid>
        </Grid>
      )}
    </ChartCard>
  );
}
