import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import type { PeriodUsageRow } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, ChoiceToggle } from '../../components/charts/ChartCard.js';
import { MetricToggle } from '../../components/charts/MetricToggle.js';
import { UsageBreakdownGrid } from '../../components/charts/UsageBreakdownGrid.js';
import { CsvExportButton } from '../../components/ExportButtons.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { downloadCsv } from '../../lib/download.js';
import { ChartEmpty, useMetricText } from './AnalyticsCard.js';
import {
  GROUP_TYPES,
  type GroupType,
  type LabelSeries,
  labelSeries,
  stackedDayData,
  type UsageMetric,
  usageByLabel,
} from './series.js';
import { breakdownCsv, tableFileStem } from './tableCsv.js';

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
  const metricText = useMetricText();

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
          <MetricToggle value={metric} onChange={setMetric} testId="analytics-breakdown-metric" text={metricText} />
          {labels.length > 0 && (
            <CsvExportButton
              onExport={() =>
                downloadCsv(
                  tableFileStem(`usage-by-${groupType}`, days[0], days.at(-1)),
                  breakdownCsv(groupType, labels),
                )
              }
              testId="analytics-breakdown-export"
            />
          )}
        </Stack>
      }
      testId="analytics-breakdown"
    >
      <Box sx={{ height: 2, mb: 1 }}>{switching && <LinearProgress sx={{ height: 2 }} />}</Box>
      {labels.length === 0 ? (
        <ChartEmpty title={t('empty.usageTitle')} description={t('empty.usage')} testId="analytics-breakdown-empty" />
      ) : (
        <UsageBreakdownGrid
          labels={labels}
          series={series}
          data={data}
          metric={metric}
          format={format}
          nameOf={nameOf}
          detailOf={({ requests, tokens, quota }) => t('breakdown.rowDetail', { requests, tokens, quota })}
          chart={{
            stackId: 'breakdown',
            height: 300,
            ariaLabel: t('breakdown.chartLabel', { metric: t(`metric.${metric}`) }),
          }}
          list={{
            label: t('breakdown.listLabel'),
            itemTestId: (label) => `analytics-breakdown-item-${label}`,
            valueTestId: (label) => `analytics-breakdown-value-${label}`,
            maxHeight: 320,
          }}
        />
      )}
    </ChartCard>
  );
}
