import { shortenNumber } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MetricFormat, MetricText } from '../components/charts/MetricToggle.js';
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

/**
 * The usage figures' names in a screen's words (its translation `namespace` holds `metric.label`
 * and `metric.<name>`), for the shared metric switch and charts.
 */
export function useMetricText(namespace: string): MetricText {
  const { t } = useTranslation(namespace);
  return { label: t('metric.label'), nameOf: (name) => t(`metric.${name}`) };
}
