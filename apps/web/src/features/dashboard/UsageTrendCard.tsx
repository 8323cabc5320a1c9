import { useTranslation } from 'react-i18next';
import { UsageTrendCard as TrendCard } from '../../components/charts/UsageTrendCard.js';
import { useWords } from '../../i18n/useWords.js';
import { DASHBOARD_AXES } from './dayAxes.js';
import type { DayUsage, UsageTotals } from './usage.js';

/** Quota, requests or tokens per day over the dashboard's eight days, with the period's totals. */
export function UsageTrendCard({ days, totals }: { days: DayUsage[]; totals: UsageTotals }) {
  const { t } = useTranslation('dashboard');
  const words = useWords('dashboard', 'usageTrend');
  return (
    <TrendCard
      words={words}
      chartLabel={(metric) => t('trend.chartLabel', { metric })}
      days={days}
      totals={totals}
      // On a phone the money figure (small amounts carry six decimals) needs more room than the counts.
      figureColumns={{ xs: 'minmax(0, 3fr) minmax(0, 2fr) minmax(0, 2fr)', sm: 'repeat(3, minmax(0, 1fr))' }}
      axisLayout={DASHBOARD_AXES}
      screen="dashboard"
    />
  );
}
