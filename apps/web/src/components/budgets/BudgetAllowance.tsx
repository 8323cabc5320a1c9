import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Budget } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { sortBudgets } from './budgetUsage.js';

/** A budget list as lines of text, one per window: "Day: $5.00 · 100 requests · 20,000 tokens". */
export function BudgetAllowance({ budgets, testId }: { budgets: readonly Budget[]; testId?: string }) {
  const { t } = useTranslation('budget');
  const format = useQuotaFormatter();
  return (
    <Stack spacing={0.25} data-testid={testId}>
      {sortBudgets(budgets).map((budget) => {
        const parts = [
          budget.quota === undefined ? null : format(budget.quota),
          budget.requests === undefined
            ? null
            : t('allowance.requests', { count: budget.requests, value: budget.requests.toLocaleString() }),
          budget.tokens === undefined
            ? null
            : t('allowance.tokens', { count: budget.tokens, value: budget.tokens.toLocaleString() }),
        ].filter((part): part is string => part !== null);
        return (
          <Typography key={budget.period} variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {t('allowance.line', { period: t(`usage.periods.${budget.period}`), parts: parts.join(' · ') })}
          </Typography>
        );
      })}
    </Stack>
  );
}
