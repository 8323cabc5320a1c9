import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GroupBudgetWindowView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { WindowUsage, windowGrid } from '../../components/budgets/BudgetUsage.js';
import { groupTopWindow, sortBudgets } from '../../components/budgets/budgetUsage.js';
import { useUserGroupDetail } from './userGroup.api.js';

function GroupWindow({ window, testId }: { window: GroupBudgetWindowView; testId: string }) {
  const { t } = useTranslation('budget');
  const { top } = window;
  return (
    <WindowUsage window={groupTopWindow(window)} testId={testId} showScope={false} showUse={top !== null}>
      <Stack spacing={0.25} sx={{ mb: top ? 1 : 0 }}>
        <Typography variant="body2" data-testid={`${testId}-members`}>
          {t('group.members', { count: window.members_using })}
          {window.members_exhausted > 0 && ` · ${t('group.exhausted', { count: window.members_exhausted })}`}
        </Typography>
        <Typography
          variant="caption"
          sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
          data-testid={`${testId}-top`}
        >
          {top ? t('group.top', { name: top.username }) : t('group.nobody')}
        </Typography>
      </Stack>
    </WindowUsage>
  );
}

/**
 * In the group dialog, under its budgets: per window, how many members have use in their current
 * window and how many used it up, and the member nearest the allowance with their use as bars.
 */
export function UserGroupBudgetUse({ groupId }: { groupId: number | null }) {
  const { t } = useTranslation('budget');
  const detail = useUserGroupDetail(groupId);
  const windows = detail.data?.budget_windows ?? [];
  if (windows.length === 0) return null;
  return (
    <Stack spacing={1} data-testid="user-group-form-budget-use">
      <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600 }}>
        {t('usage.title')}
      </Typography>
      <Box sx={windowGrid}>
        {sortBudgets(windows).map((window) => (
          <GroupWindow key={window.period} window={window} testId={`user-group-form-budget-use-${window.period}`} />
        ))}
      </Box>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {t('group.stored')}
      </Typography>
    </Stack>
  );
}
