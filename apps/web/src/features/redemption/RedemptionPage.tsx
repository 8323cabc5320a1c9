import Add from '@mui/icons-material/Add';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import RedeemOutlined from '@mui/icons-material/RedeemOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { RedemptionView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import type { CreatedBatch } from './codesExport.js';
import { CodesCreatedDialog, DeleteRedemptionDialog } from './RedemptionDialogs.js';
import { RedemptionFormDialog } from './RedemptionFormDialog.js';
import { RedemptionsTable } from './RedemptionsTable.js';
import { RedemptionToolbar } from './RedemptionToolbar.js';
import { useRedemptions } from './redemption.api.js';
import { REDEMPTION_PAGE_SIZES, useRedemptionListParams } from './useRedemptionListParams.js';

/** Administrators create redemption codes in batches, hand them out, and switch them off or delete them. */
export function RedemptionPage() {
  const { t } = useTranslation('redemption');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [params, update] = useRedemptionListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const codes = useRedemptions(params);
  const formDialog = useDialogSubject<RedemptionView>();
  const [deleting, setDeleting] = useState<RedemptionView | null>(null);
  const [created, setCreated] = useState<CreatedBatch | null>(null);

  const rows = codes.data?.data ?? [];
  const total = codes.data?.total_count ?? 0;
  // After deleting the last code of the last page, step back to the page that still has codes.
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    { loaded: Boolean(codes.data), rows: rows.length, total, page: params.page, size: params.size },
    goToPage,
  );

  const openForm = (code: RedemptionView | null) => {
    formDialog.show(code);
  };
  const createdBatch = (batch: CreatedBatch) => {
    formDialog.close();
    setCreated(batch);
  };

  const loadingFirstPage = codes.isLoading;
  const empty = !loadingFirstPage && rows.length === 0 && !codes.isError;
  const failed = codes.isError && !codes.data;
  const filtered = Boolean(params.keyword) || params.status !== 0;

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => openForm(null)}
            data-testid="redemption-create"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('create')}
          </Button>
        }
      />

      <Card>
        <RedemptionToolbar
          keyword={params.keyword}
          status={params.status}
          onSearch={search}
          onStatus={(status) => update({ status })}
          onRefresh={() => void codes.refetch()}
        />
        <FetchingBar active={codes.isFetching && !loadingFirstPage} />
        <Divider />

        {failed ? (
          <ListEmptyState
            icon={ErrorOutlineOutlined}
            title={t('error.title')}
            description={t('error.description')}
            action={<Button onClick={() => void codes.refetch()}>{t('common:retry')}</Button>}
            testId="redemption-error"
          />
        ) : empty ? (
          <ListEmptyState
            icon={RedeemOutlined}
            title={filtered ? t('empty.noMatchTitle') : t('empty.title')}
            description={filtered ? t('empty.noMatch') : t('empty.description')}
            action={
              filtered ? (
                <Button onClick={() => update({ keyword: '', status: 0 })} data-testid="redemption-clear-filters">
                  {t('empty.clearFilters')}
                </Button>
              ) : (
                <Button variant="outlined" startIcon={<Add />} onClick={() => openForm(null)}>
                  {t('create')}
                </Button>
              )
            }
            testId="redemption-empty"
          />
        ) : (
          <RedemptionsTable
            codes={rows}
            loading={loadingFirstPage}
            order={params.order}
            onSort={(order) => update({ order })}
            compact={compact}
            onEdit={openForm}
            onDelete={setDeleting}
          />
        )}

        <ListPagination
          total={total}
          page={params.page}
          lastPage={lastPage}
          size={params.size}
          sizes={REDEMPTION_PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="redemption-pagination"
        />
      </Card>

      <RedemptionFormDialog
        open={formDialog.open}
        session={formDialog.session}
        code={formDialog.subject}
        onClose={() => formDialog.close()}
        onCreated={createdBatch}
      />
      <DeleteRedemptionDialog code={deleting} onClose={() => setDeleting(null)} />
      <CodesCreatedDialog batch={created} onClose={() => setCreated(null)} />
    </Box>
  );
}
