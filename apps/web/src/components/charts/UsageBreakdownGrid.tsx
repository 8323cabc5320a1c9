import Grid from '@mui/material/Grid';
import type { LabelSeries, LabelUsage, UsageMetric } from '../../lib/usage.js';
import type { MetricFormat } from './MetricToggle.js';
import { StackedUsageChart, UsageShareList } from './UsageBreakdown.js';

export interface UsageFigures {
  requestCount: number;
  tokenCount: number;
  requests: string;
  tokens: string;
  quota: string;
}

interface UsageBreakdownGridProps {
  /** Every entry of the period (model, channel, owner) with its totals. */
  labels: readonly LabelUsage[];
  /** The entries drawn in the chart, the rest folded into one. */
  series: readonly LabelSeries[];
  /** One row per day, a value per series. */
  data: Array<Record<string, string | number>>;
  metric: UsageMetric;
  format: MetricFormat;
  nameOf: (entry: LabelSeries) => string;
  /** The small line under an entry, in the screen's words, given its formatted figures. */
  /** Figures as text, with the raw counts for plural forms. */
  detailOf: (figures: UsageFigures) => string;
  chart: { stackId: string; height: number; ariaLabel: string; axisLayout?: { minTickGap?: number } };
  list: {
    label: string;
    itemTestId: (label: string) => string;
    valueTestId: (label: string) => string;
    maxHeight?: number;
  };
}

/** Each day stacked by entry, beside every entry's share of the period; the list goes under on phones. */
export function UsageBreakdownGrid({
  labels,
  series,
  data,
  metric,
  format,
  nameOf,
  detailOf,
  chart,
  list,
}: UsageBreakdownGridProps) {
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 7 }}>
        <StackedUsageChart
          data={data}
          series={series}
          metric={metric}
          nameOf={nameOf}
          formatFull={(value) => format.full(metric, value)}
          formatTick={(value) => format.short(metric, value)}
          {...chart}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        <UsageShareList
          labels={labels}
          metric={metric}
          series={series}
          formatFull={format.full}
          detailOf={(entry) =>
            detailOf({
              requestCount: entry.requests,
              tokenCount: entry.tokens,
              requests: entry.requests.toLocaleString(),
              tokens: entry.tokens.toLocaleString(),
              quota: format.full('quota', entry.quota),
            })
          }
          listLabel={list.label}
          itemTestId={list.itemTestId}
          valueTestId={list.valueTestId}
          maxHeight={list.maxHeight}
        />
      </Grid>
    </Grid>
  );
}
