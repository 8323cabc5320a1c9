import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RedeemOutlined from '@mui/icons-material/RedeemOutlined';
import Button from '@mui/material/Button';
import type { RedemptionView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPage } from '../../components/ListPage.js';
import { ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
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
  const listParams = useRedemptionListParams();
  const codes = useRedemptions(listParams[0]);
  const { params, update, form, ...list } = useListPage({
    id: 'redemption',
    words,
    list: listParams,
    query: codes,
    searchKey: 'keyword',
    compactBelow: 'sm',
  });
  const [deleting, setDeleting] = useState<RedemptionView | null>(null);
  const [created, setCreated] = useState<CreatedBatch | null>(null);

  const openForm = (code: RedemptionView | null) => {
    form.show(code);
  };
  const createdBatch = (batch: CreatedBatch) => {
    form.close();
    setCreated(batch);
  };

  return (
    <ListPage
      {...list.page}
      toolbar={
        <RedemptionToolbar
          keyword={params.keyword}
          status={params.status}
          onSearch={list.toolbar.search.onSearch}
          onStatus={(status) => update({ status })}
          onRefresh={list.toolbar.onRefresh}
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
          {...list.noRows}
          icon={RedeemOutlined}
          filtered={Boolean(params.keyword) || params.status !== 0}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '', status: 0 })}
          clearTestId="redemption-clear-filters"
        />
      }
      dialogs={
        <>
          <RedemptionFormDialog {...list.formDialog} code={form.subject} onCreated={createdBatch} />
          <DeleteRedemptionDialog code={deleting} onClose={() => setDeleting(null)} />
          <CodesCreatedDialog batch={created} onClose={() => setCreated(null)} />
        </>
      }
    >
      {(list) => <RedemptionsTable {...list} onEdit={openForm} onDelete={setDeleting} />}
    </ListPage>
  );
}
