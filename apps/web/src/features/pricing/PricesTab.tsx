import Add from '@mui/icons-material/Add';
import LibraryAddOutlined from '@mui/icons-material/LibraryAddOutlined';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PriceView, SyncPricesResult } from '@one-hub/contracts';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { describeError, notify } from '../../lib/notify.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { MultiplePriceDialog } from './MultiplePriceDialog.js';
import { PriceFilters } from './PriceFilters.js';
import { PriceFormDialog } from './PriceFormDialog.js';
import { PriceSelectionBar } from './PriceSelectionBar.js';
import { PricesTable } from './PricesTable.js';
import { filterPrices, type OwnerOption } from './priceTable.js';
import { useDeletePrice, useDeletePrices, usePrices } from './pricing.api.js';
import { UnpricedPrices } from './UnpricedPrices.js';
import { useModelSelection } from './useModelSelection.js';
import { PRICE_PAGE_SIZES, type PricingParams } from './usePricingParams.js';

interface PricesTabProps {
  params: PricingParams;
  update(changes: Partial<PricingParams>): void;
  owners: readonly OwnerOption[];
  ownerMap: ReadonlyMap<number, OwnerOption>;
  compact: boolean;
}

type Dialog =
  | { kind: 'single'; price: PriceView | null; model?: string; session: number }
  | { kind: 'multiple'; originals: PriceView[]; session: number };

/** The price list with search, filters, selection and every edit of reference §1.11. */
export function PricesTab({ params, update, owners, ownerMap, compact }: PricesTabProps) {
  const { t } = useTranslation('pricing');
  const prices = usePrices();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<PriceView | null>(null);
  const [deletingSelected, setDeletingSelected] = useState(false);
  const deleteOne = useDeletePrice();
  const deleteMany = useDeletePrices();

  const all = prices.data ?? [];
  const taken = useMemo(() => new Set(all.map((price) => price.model)), [all]);
  const filtered = useMemo(
    () => filterPrices(all, { search: params.search, owner: params.owner, type: params.type }),
    [all, params.search, params.owner, params.type],
  );
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    {
      loaded: Boolean(prices.data),
      rows: filtered.slice((params.page - 1) * params.size).length,
      total: filtered.length,
      page: params.page,
      size: params.size,
    },
    goToPage,
  );
  const page = Math.min(params.page, lastPage);
  const rows = filtered.slice((page - 1) * params.size, page * params.size);

  const { selected, setSelected, toggle, toggleMany } = useModelSelection(taken);

  /** `model` names a new price, when it is added for a model the alert lists. */
  const openSingle = (price: PriceView | null, model?: string) => {
    setDialog({ kind: 'single', price, model, session: Date.now() });
    setDialogOpen(true);
  };
  const openMultiple = (originals: PriceView[]) => {
    setDialog({ kind: 'multiple', originals, session: Date.now() });
    setDialogOpen(true);
  };
  const selectedPrices = all.filter((price) => selected.has(price.model));

  const savedMultiple = (result: SyncPricesResult) => {
    setDialogOpen(false);
    setSelected(new Set());
    notify.success(t('notify.multipleSaved', { ...result }));
  };
  const confirmDelete = () => {
    if (!deleting) return;
    deleteOne.mutate(deleting.model, {
      onSuccess: () => {
        notify.success(t('notify.deleted', { model: deleting.model }));
        setDeleting(null);
      },
    });
  };
  const confirmDeleteSelected = () =>
    deleteMany.mutate([...selected], {
      onSuccess: (result) => {
        notify.success(t('notify.deletedMany', { count: result.deleted }));
        setSelected(new Set());
        setDeletingSelected(false);
      },
    });

  const filtering = Boolean(params.search || params.owner !== null || params.type);
  const empty = !prices.isPending && !prices.isError && filtered.length === 0;

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, justifyContent: 'flex-end', flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="outlined"
          startIcon={<LibraryAddOutlined />}
          onClick={() => openMultiple([])}
          data-testid="pricing-create-multiple"
        >
          {t('multiple.create')}
        </Button>
        <Button variant="contained" startIcon={<Add />} onClick={() => openSingle(null)} data-testid="pricing-create">
          {t('create')}
        </Button>
      </Stack>
      <UnpricedPrices onAdd={(model) => openSingle(null, model)} />
      <Card>
        <PriceFilters
          params={params}
          update={update}
          owners={owners}
          count={t('count', { shown: filtered.length, count: all.length })}
          onRefresh={() => void prices.refetch()}
        />
        {selected.size > 0 && (
          <PriceSelectionBar
            count={selected.size}
            filteredCount={filtered.length}
            onSelectAll={() =>
              toggleMany(
                filtered.map((price) => price.model),
                true,
              )
            }
            onClear={() => setSelected(new Set())}
            onSetPrice={() => openMultiple(selectedPrices)}
            onDelete={() => setDeletingSelected(true)}
          />
        )}
        <FetchingBar active={prices.isFetching && !prices.isPending} />
        <Divider />

        {prices.isError ? (
          <Alert
            severity="error"
            sx={{ m: 2 }}
            data-testid="pricing-error"
            action={
              <Button color="inherit" size="small" onClick={() => void prices.refetch()}>
                {t('common:retry')}
              </Button>
            }
          >
            {describeError(prices.error)}
          </Alert>
        ) : empty ? (
          <ListEmptyState
            icon={PaidOutlined}
            title={filtering ? t('empty.noMatchTitle') : t('empty.title')}
            description={filtering ? t('empty.noMatch') : t('empty.description')}
            action={
              filtering ? (
                <Button
                  onClick={() => update({ search: '', owner: null, type: '' })}
                  data-testid="pricing-clear-filters"
                >
                  {t('empty.clearFilters')}
                </Button>
              ) : (
                <Button variant="outlined" startIcon={<Add />} onClick={() => openSingle(null)}>
                  {t('create')}
                </Button>
              )
            }
            testId="pricing-empty"
          />
        ) : (
          <PricesTable
            prices={rows}
            loading={prices.isPending}
            owners={ownerMap}
            selected={selected}
            onToggle={toggle}
            onToggleAll={(select) =>
              toggleMany(
                rows.map((price) => price.model),
                select,
              )
            }
            compact={compact}
            onEdit={openSingle}
            onDelete={setDeleting}
          />
        )}
        <ListPagination
          total={filtered.length}
          page={page}
          lastPage={lastPage}
          size={params.size}
          sizes={PRICE_PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="pricing-pagination"
        />
      </Card>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 1.5 }}>
        {t('unitNote')}
      </Typography>

      <PriceFormDialog
        open={dialogOpen && dialog?.kind === 'single'}
        session={dialog?.kind === 'single' ? dialog.session : null}
        price={dialog?.kind === 'single' ? dialog.price : null}
        model={dialog?.kind === 'single' ? dialog.model : undefined}
        taken={taken}
        owners={owners}
        onClose={() => setDialogOpen(false)}
        onSaved={(price, created) => {
          setDialogOpen(false);
          notify.success(
            created ? t('notify.created', { model: price.model }) : t('notify.saved', { model: price.model }),
          );
        }}
      />
      <MultiplePriceDialog
        open={dialogOpen && dialog?.kind === 'multiple'}
        session={dialog?.kind === 'multiple' ? dialog.session : null}
        originals={dialog?.kind === 'multiple' ? dialog.originals : []}
        taken={taken}
        owners={owners}
        onClose={() => setDialogOpen(false)}
        onSaved={savedMultiple}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('deleteDialog.title')}
        message={t('deleteDialog.message', { model: deleting?.model ?? '' })}
        confirmLabel={t('delete')}
        busy={deleteOne.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
        testId="pricing-delete-dialog"
      />
      <ConfirmDialog
        open={deletingSelected}
        title={t('deleteDialog.manyTitle', { count: selected.size })}
        message={t('deleteDialog.manyMessage', { models: [...selected].slice(0, 8).join(', '), count: selected.size })}
        confirmLabel={t('delete')}
        busy={deleteMany.isPending}
        onConfirm={confirmDeleteSelected}
        onClose={() => setDeletingSelected(false)}
        testId="pricing-delete-many-dialog"
      />
    </>
  );
}
