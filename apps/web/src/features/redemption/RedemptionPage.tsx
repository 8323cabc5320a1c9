import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RedeemOutlined from '@mui/icons-material/RedeemOutlined';
import Button from '@mui/material/Button';
import type { RedemptionView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPage } from '../../components/ListPage.js';
import { ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useWords } from '../../i18n/useWords.js';
import type { CreatedBatch } from './codesExport.js';
import { CodesCreatedDialog, DeleteRedemptionDialog } from './RedemptionDialogs.js';
import { RedemptionFormDialog } from './RedemptionFormDialog.js';
import { RedemptionsTable } from './RedemptionsTable.js';
import { RedemptionToolbar } from './RedemptionToolbar.js';
import { useRedemptions } from './redemption.api.js';
import { useRedemptionListParams } from './useRedemptionListParams.js';

/** Administrators create redemption codes in batches, hand them out, and switch them off or delete them. */
export function RedemptionPage() {
  const { t } = useTranslation('redemption');
  const words = useWords('redemption', 'list');
  const compact = useCompact('sm');
  const [params, update] = useRedemptionListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const codes = useRedemptions(params);
  const formDialog = useDialogSubject<RedemptionView>();
  const [deleting, setDeleting] = useState<RedemptionView | null>(null);
  const [created, setCreated] = useState<CreatedBatch | null>(null);

  const openForm = (code: RedemptionView | null) => {
    formDialog.show(code);
  };
  const createdBatch = (batch: CreatedBatch) => {
    formDialog.close();
    setCreated(batch);
  };

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => openForm(null), testId: 'redemption-create' }}
      query={codes}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="redemption-pagination"
      toolbar={
        <RedemptionToolbar
          keyword={params.keyword}
          status={params.status}
          onSearch={search}
          onStatus={(status) => update({ status })}
          onRefresh={() => void codes.refetch()}
        />
      }
      error={
        <ListEmptyState
          icon={ErrorOutlineOutlined}
          title={t('error.title')}
          description={t('error.description')}
          action={<Button onClick={() => void codes.refetch()}>{t('common:retry')}</Button>}
          testId="redemption-error"
        />
      }
      empty={
        <ListNoRows
          icon={RedeemOutlined}
          testId="redemption-empty"
          filtered={Boolean(params.keyword) || params.status !== 0}
          {...words.empty}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '', status: 0 })}
          clearTestId="redemption-clear-filters"
          create={{ label: words.create, onClick: () => openForm(null) }}
        />
      }
      dialogs={
        <>
          <RedemptionFormDialog
            open={formDialog.open}
            session={formDialog.session}
            code={formDialog.subject}
            onClose={() => formDialog.close()}
            onCreated={createdBatch}
          />
          <DeleteRedemptionDialog code={deleting} onClose={() => setDeleting(null)} />
          <CodesCreatedDialog batch={created} onClose={() => setCreated(null)} />
        </>
      }
    >
      {(list) => <RedemptionsTable {...list} onEdit={openForm} onDelete={setDeleting} />}
    </ListPage>
  );
}
