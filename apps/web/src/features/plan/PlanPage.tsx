import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import Box from '@mui/material/Box';
import type { PlanView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { DeletePlanDialog, GrantPlanDialog } from './PlanDialogs.js';
import { PlanFormDialog } from './PlanFormDialog.js';
import { PlansTable } from './PlansTable.js';
import { usePlans } from './plan.api.js';
import { usePlanListParams } from './usePlanListParams.js';

/** Subscription plans (administrators): define, edit, delete, and grant one to a user. */
export function PlanPage() {
  const { t } = useTranslation('plan');
  const words = useWords('plan', 'list');
  const compact = useCompact('md');
  const [params, update] = usePlanListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const plans = usePlans(params);
  const form = useDialogSubject<PlanView>();
  const [deleting, setDeleting] = useState<PlanView | null>(null);
  const [granting, setGranting] = useState<PlanView | null>(null);

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => form.show(null), testId: 'plan-create' }}
      query={plans}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="plan-pagination"
      testId="plan-page"
      toolbar={
        <ListToolbar
          search={{
            value: params.keyword,
            onSearch: search,
            ...words.search,
            testId: 'plan-search',
            sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } },
          }}
          refreshLabel={words.refresh}
          onRefresh={() => void plans.refetch()}
          refreshTestId="plan-refresh"
        >
          <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        </ListToolbar>
      }
      error={<ListLoadError error={plans.error} onRetry={() => void plans.refetch()} testId="plan-load-error" />}
      empty={
        <ListNoRows
          icon={WorkspacePremiumOutlined}
          testId="plan-empty"
          filtered={Boolean(params.keyword)}
          {...words.empty}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '' })}
          clearTestId="plan-clear-filters"
          create={{ label: words.create, onClick: () => form.show(null) }}
        />
      }
      dialogs={
        <>
          <PlanFormDialog
            open={form.open}
            session={form.session}
            plan={form.subject}
            onClose={() => form.close()}
            onSaved={(plan, created) => {
              form.close();
              notify.success(created ? t('notify.created', { name: plan.name }) : t('notify.saved'));
            }}
          />
          <DeletePlanDialog plan={deleting} onClose={() => setDeleting(null)} />
          <GrantPlanDialog plan={granting} onClose={() => setGranting(null)} />
        </>
      }
    >
      {(list) => (
        <PlansTable {...list} onEdit={(plan) => form.show(plan)} onGrant={setGranting} onDelete={setDeleting} />
      )}
    </ListPage>
  );
}
