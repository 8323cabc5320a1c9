import { useTranslation } from 'react-i18next';
import type { MetricText } from '../../components/charts/MetricToggle.js';

/** The usage figures' names in this screen's words, for the shared metric switch and charts. */
export function useMetricText(): MetricText {
  const { t } = useTranslation('dashboard');
  return { label: t('metric.label'), nameOf: (name) => t(`metric.${name}`) };
}
