import { useTranslation } from 'react-i18next';
import { ChoiceToggle } from '../../components/charts/ChartCard.js';
import { type UsageMetric, usageMetrics } from './usage.js';

/** Quota / requests / tokens switch shared by the usage charts. */
export function MetricToggle({
  value,
  onChange,
  testId,
}: {
  value: UsageMetric;
  onChange: (metric: UsageMetric) => void;
  testId: string;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <ChoiceToggle
      value={value}
      options={usageMetrics}
      labelOf={(metric) => t(`metric.${metric}`)}
      onChange={onChange}
      label={t('metric.label')}
      testId={testId}
    />
  );
}
