import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BudgetsEditor } from '../../components/budgets/BudgetsEditor.js';
import { BudgetUsage } from '../../components/budgets/BudgetUsage.js';
import { FormSection } from '../../components/form/FormSection.js';
import { useTokenDetail } from './token.api.js';

/**
 * A key's budget windows in its dialog, and (for one of the caller's own keys being edited) the
 * current use of each window, read from `GET /api/token/:id`.
 */
export function TokenBudgetSection({ tokenId }: { tokenId: number | null }) {
  const { t } = useTranslation('budget');
  const detail = useTokenDetail(tokenId);
  const windows = detail.data?.budget_windows ?? [];
  return (
    <FormSection title={t('section')} spacing={1.5}>
      <BudgetsEditor testId="token-form-budgets" hint={t('hints.key')} />
      {windows.length > 0 && (
        <Stack spacing={1}>
          <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600 }}>
            {t('usage.title')}
          </Typography>
          <BudgetUsage windows={windows} testId="token-form-budget-use" showScope={false} />
        </Stack>
      )}
    </FormSection>
  );
}
