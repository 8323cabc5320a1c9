import { shortenNumber } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import type { UsageMetric } from './usage.js';

export interface MetricFormat {
  /** The exact figure, for tooltips and totals. */
  full(metric: UsageMetric, value: number): string;
  /** A short figure for axis ticks. */
  short(metric: UsageMetric, value: number): string;
}

/** Quota through the site's formatter (spec §9); counts with grouping, shortened on axes. */
export function useMetricFormat(): MetricFormat {
  const formatQuota = useQuotaFormatter();
  return useMemo(
    () => ({
      full: (metric, value) => (metric === 'quota' ? formatQuota(value) : value.toLocaleString()),
      short: (metric, value) => (metric === 'quota' ? formatQuota(value) : shortenNumber(value)),
    }),
    [formatQuota],
  );
}
