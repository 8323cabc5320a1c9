import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LibraryAddOutlined from '@mui/icons-material/LibraryAddOutlined';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PriceType, PriceView, SyncPricesResult } from '@one-hub/contracts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { describeError, notify } from '../../lib/notify.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { MultiplePriceDialog } from './MultiplePriceDialog.js';
import { PriceFormDialog } from './PriceFormDialog.js';
import { PricesTable } from './PricesTable.js';
import { filterPrices, type OwnerOption } from './priceTable.js';
import { useDeletePrice, useDeletePrices, usePrices } from './pricing.api.js';
import { UnpricedPrices } from './UnpricedPrices.js';
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
  const [selected, setSelected] = useState<Set<string>>(new Set());
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
  const search = useCallback((text: string) => update({ search: text }), [update]);
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

  // Rows deleted elsewhere leave the selection.
  useEffect(() => {
    setSelected((current) => {
      const kept = [...current].filter((model) => taken.has(model));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [taken]);

  const toggle = (model: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(model)) next.add(model);
      return next;
    });
  const toggleMany = (models: readonly string[], select: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const model of models) {
        if (select) next.add(model);
        else next.delete(model);
      }
      return next;
    });

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
  const ownerChoice = owners.find((owner) => owner.id === params.owner) ?? null;

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
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{ p: 2, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
          useFlexGap
        >
          <SearchField
            value={params.search}
            onSearch={search}
            placeholder={t('searchPlaceholder')}
            label={t('searchLabel')}
            testId="pricing-search"
            delayMs={300}
            sx={{ width: { xs: '100%', sm: 260 } }}
          />
          <Autocomplete
            size="small"
            options={owners as OwnerOption[]}
            value={ownerChoice}
            onChange={(_event, owner) => update({ owner: owner?.id ?? null })}
            getOptionLabel={(owner) => owner.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            sx={{ width: { xs: '100%', sm: 220 } }}
            renderOption={({ key, ...props }, owner) => (
              <li key={key} {...props} data-testid={`pricing-filter-owner-option-${owner.id}`}>
                {owner.name}
              </li>
            )}
            renderInput={(input) => (
              <TextField
                {...input}
                label={t('filters.owner')}
                slotProps={{
                  ...input.slotProps,
                  htmlInput: { ...input.slotProps.htmlInput, 'data-testid': 'pricing-filter-owner' },
                }}
              />
            )}
          />
          <TextField
            select
            size="small"
            label={t('filters.type')}
            value={params.type}
            onChange={(event) => update({ type: event.target.value as PriceType | '' })}
            sx={{ width: { xs: '100%', sm: 160 } }}
            slotProps={{
              inputLabel: { shrink: true },
              select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'pricing-filter-type' } as object },
            }}
          >
            <MenuItem value="" data-testid="pricing-filter-type-all">
              {t('filters.allTypes')}
            </MenuItem>
            <MenuItem value="tokens" data-testid="pricing-filter-type-tokens">
              {t('type.tokens')}
            </MenuItem>
            <MenuItem value="times" data-testid="pricing-filter-type-times">
              {t('type.times')}
            </MenuItem>
          </TextField>
          <Stack
            direction="row"
            spacing={1}
            sx={{ flex: 1, alignItems: 'center', justifyContent: { xs: 'space-between', sm: 'flex-end' } }}
          >
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="pricing-count">
              {t('count', { shown: filtered.length, count: all.length })}
            </Typography>
            <RefreshButton label={t('refresh')} onClick={() => void prices.refetch()} testId="pricing-refresh" />
          </Stack>
        </Stack>

        {selected.size > 0 && (
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            data-testid="pricing-selection"
            sx={{
              px: 2,
              py: 1,
              alignItems: { sm: 'center' },
              bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.08 : 0.16),
            }}
          >
            <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} data-testid="pricing-selected-count">
              {t('selection.count', { count: selected.size })}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }} useFlexGap>
              {filtered.length > selected.size && (
                <Button
                  size="small"
                  onClick={() =>
                    toggleMany(
                      filtered.map((price) => price.model),
                      true,
                    )
                  }
                  data-testid="pricing-select-all"
                >
                  {t('selection.selectAll', { count: filtered.length })}
                </Button>
              )}
              <Button
                size="small"
                onClick={() => setSelected(new Set())}
                color="inherit"
                data-testid="pricing-select-none"
              >
                {t('selection.clear')}
              </Button>
              <Button
                size="small"
                variant="contained"
                startIcon={<PaidOutlined />}
                onClick={() => openMultiple(selectedPrices)}
                data-testid="pricing-edit-selected"
              >
                {t('selection.setPrice')}
              </Button>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<DeleteOutlined />}
                onClick={() => setDeletingSelected(true)}
                data-testid="pricing-delete-selected"
              >
                {t('selection.delete')}
              </Button>
            </Stack>
          </Stack>
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
