import { USAGE_METRICS, type UsageMetric } from '../../lib/usage.js';
import { ChoiceToggle } from './ChartCard.js';

/** A screen's words for the usage figures, from its own translations. */
export interface MetricText {
  /** The accessible name of the quota / requests / tokens switch. */
  label: string;
  /** The name of a figure, or of one half of "tokens". */
  nameOf(name: UsageMetric | 'promptTokens' | 'completionTokens'): string;
}

/** How a screen writes each figure: exactly for totals and tooltips, short for axis ticks. */
export interface MetricFormat {
  /** The exact figure, for tooltips and totals. */
  full(metric: UsageMetric, value: number): string;
  /** A short figure for axis ticks. */
  short(metric: UsageMetric, value: number): string;
}

/** Quota / requests / tokens switch shared by the usage charts. */
export function MetricToggle({
  value,
  onChange,
  testId,
  text,
}: {
  value: UsageMetric;
  onChange: (metric: UsageMetric) => void;
  testId: string;
  text: MetricText;
}) {
  return (
    <ChoiceToggle
      value={value}
      options={USAGE_METRICS}
      labelOf={text.nameOf}
      onChange={onChange}
      label={text.label}
      testId={testId}
    />
  );
}
