import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import Box from '@mui/material/Box';
import type { PlanView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
import { useWords } from '../../i18n/useWords.js';
import { DeletePlanDialog, GrantPlanDialog } from './PlanDialogs.js';
import { PlanFormDialog } from './PlanFormDialog.js';
import { PlansTable } from './PlansTable.js';
import { usePlans } from './plan.api.js';
import { SubscribersDialog } from './SubscribersDialog.js';
import { usePlanListParams } from './usePlanListParams.js';

/** Subscription plans (administrators): define, edit, delete, grant one to a user, see and end its subscriptions. */
export function PlanPage() {
  const { t } = useTranslation('plan');
  const words = useWords('plan', 'list');
  const listParams = usePlanListParams();
  const plans = usePlans(listParams[0]);
  const { params, update, form, ...list } = useListPage({
    id: 'plan',
    words,
    list: listParams,
    query: plans,
    searchKey: 'keyword',
  });
  const [deleting, setDeleting] = useState<PlanView | null>(null);
  const [granting, setGranting] = useState<PlanView | null>(null);
  const [listing, setListing] = useState<PlanView | null>(null);

  return (
    <ListPage
      {...list.page}
      testId="plan-page"
      toolbar={
        <ListToolbar
          {...list.toolbar}
          search={{ ...list.toolbar.search, sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } } }}
        >
          <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        </ListToolbar>
      }
      error={<ListLoadError {...list.loadError} />}
      empty={
        <ListNoRows
          {...list.noRows}
          icon={WorkspacePremiumOutlined}
          filtered={Boolean(params.keyword)}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '' })}
          clearTestId="plan-clear-filters"
        />
      }
      dialogs={
        <>
          <PlanFormDialog
            {...list.formDialog}
            plan={form.subject}
            onSaved={(plan, created) =>
              list.saved(created ? t('notify.created', { name: plan.name }) : t('notify.saved'))
            }
          />
          <DeletePlanDialog plan={deleting} onClose={() => setDeleting(null)} />
          <GrantPlanDialog plan={granting} onClose={() => setGranting(null)} />
          <SubscribersDialog plan={listing} onClose={() => setListing(null)} />
        </>
      }
    >
      {(list) => (
        <PlansTable
          {...list}
          onEdit={(plan) => form.show(plan)}
          onGrant={setGranting}
          onSubscribers={setListing}
          onDelete={setDeleting}
        />
      )}
    </ListPage>
  );
}
