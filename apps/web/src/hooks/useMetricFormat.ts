import { shortenNumber } from '@one-hub/contracts';
import { useMemo } from 'react';
import type { MetricFormat } from '../components/charts/MetricToggle.js';
import { useQuotaFormatter } from './useQuotaFormatter.js';

/** Quota through the site's formatter (spec §9); counts with grouping, shortened on axes. */
export function useMetricFormat(): MetricFormat {
  const formatQuota = useQuotaFormatter();
  return useMemo(
    () => ({
      full: (metric, value) => (metric === 'quota' ? formatQuota(value) : value.toLocaleString()),
      short: (metric, value) => (metric === 'quota' ? formatQuota.tick(value) : shortenNumber(value)),
    }),
    [formatQuota],
  );
}
