import TimelapseOutlined from '@mui/icons-material/TimelapseOutlined';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { BudgetUsage } from '../../components/budgets/BudgetUsage.js';
import { SectionCard } from '../../components/SectionCard.js';
import { useUserPlan } from '../../hooks/useUserPlan.js';
import { userWindows } from '../../lib/userPlan.js';

/**
 * The budget windows that limit the caller (their own, their group's, their plan's), one bar per
 * allowance with when it resets; nothing at all while no window applies.
 */
export function BudgetWindowsCard() {
  const { t } = useTranslation('dashboard');
  const plan = useUserPlan();
  const windows = userWindows(plan.data);
  if (windows.length === 0) return null;
  return (
    <Box sx={{ mb: 2.5 }}>
      <SectionCard
        icon={<TimelapseOutlined />}
        title={t('budgets.title')}
        subtitle={t('budgets.subtitle')}
        testId="dashboard-budgets"
        fill="none"
      >
        <BudgetUsage windows={windows} testId="dashboard-budget" />
      </SectionCard>
    </Box>
  );
}
