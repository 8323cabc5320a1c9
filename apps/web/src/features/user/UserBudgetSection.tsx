import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BudgetsEditor } from '../../components/budgets/BudgetsEditor.js';
import { BudgetUsage } from '../../components/budgets/BudgetUsage.js';
import { FormSection } from '../../components/form/FormSection.js';
import { useUserDetail } from './user.api.js';

/**
 * A user's budget windows in the user dialog (not on the caller's own row, which the admin route
 * may not change) and, when editing, the current use of the user's and their group's windows.
 */
export function UserBudgetSection({ userId, editable }: { userId: number | null; editable: boolean }) {
  const { t } = useTranslation('budget');
  const detail = useUserDetail(userId);
  const windows = detail.data?.budget_windows ?? [];
  if (!editable && windows.length === 0) return null;
  return (
    <FormSection title={t('section')} spacing={1.5}>
      {editable && <BudgetsEditor testId="user-form-budgets" hint={t('hints.user')} />}
      {windows.length > 0 && (
        <Stack spacing={1}>
          <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600 }}>
            {t('usage.title')}
          </Typography>
          <BudgetUsage windows={windows} testId="user-form-budget-use" />
        </Stack>
      )}
    </FormSection>
  );
}
