import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import { PAYMENT_GATEWAY_TYPES, type PaymentGatewayType, type PaymentGatewayView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ListPanel, ListToolbar } from '../../components/ListPanel.js';
import { ListNoRows } from '../../components/ListStates.js';
import { useListPanel } from '../../components/useListPage.js';
import { PAGE_SIZES } from '../../hooks/listParams.js';
import { notify } from '../../lib/notify.js';
import { GatewaysTable } from './GatewaysTable.js';
import { FilterSelect, ListLoadFailed } from './ListParts.js';
import { useDeletePaymentGateway, usePaymentGatewayList } from './payment.api.js';
import { useGatewayListParams } from './paymentListParams.js';
import { useIsRoot } from './paymentRole.js';

interface GatewaysTabProps {
  onCreate(): void;
  onEdit(gateway: PaymentGatewayView): void;
}

function DeleteGatewayDialog({ gateway, onClose }: { gateway: PaymentGatewayView | null; onClose(): void }) {
  const { t } = useTranslation('payment');
  const remove = useDeletePaymentGateway();
  return (
    <ConfirmDialog
      open={gateway !== null}
      title={t('delete.title')}
      message={t('delete.message', { name: gateway?.name ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      busy={remove.isPending}
      destructive
      onConfirm={() =>
        gateway &&
        remove.mutate(gateway.id, {
          onSuccess: () => {
            notify.success(t('notify.deleted'));
            onClose();
          },
        })
      }
      onClose={onClose}
      testId="payment-delete-dialog"
    />
  );
}

/** The gateway list with its type and name filters. */
export function GatewaysTab({ onCreate, onEdit }: GatewaysTabProps) {
  const { t } = useTranslation('payment');
  const listParams = useGatewayListParams();
  const [params, update] = listParams;
  const gateways = usePaymentGatewayList(params);
  const panel = useListPanel('payment', listParams, gateways, 'sm');
  const { compact } = panel;
  const [deleting, setDeleting] = useState<PaymentGatewayView | null>(null);
  const root = useIsRoot();

  return (
    <>
      <ListPanel
        {...panel}
        sizes={PAGE_SIZES}
        toolbar={
          <ListToolbar
            search={{
              value: params.name,
              onSearch: (name) => update({ name }),
              placeholder: t('searchName'),
              label: t('searchName'),
              testId: 'payment-search',
            }}
            refreshLabel={t('refresh')}
            onRefresh={() => void gateways.refetch()}
            refreshTestId="payment-refresh"
          >
            <FilterSelect
              label={t('fields.type')}
              value={params.type}
              options={PAYMENT_GATEWAY_TYPES}
              labelOf={(type) => t(`types.${type}`)}
              anyLabel={t('anyType')}
              onChange={(type: PaymentGatewayType | '') => update({ type })}
              testId="payment-type-filter"
              width={150}
            />
          </ListToolbar>
        }
        error={
          <ListLoadFailed title={t('gateways.error')} onRetry={() => void gateways.refetch()} testId="payment-error" />
        }
        empty={
          <ListNoRows
            icon={PaymentsOutlined}
            testId="payment-empty"
            filtered={Boolean(params.name || params.type)}
            title={t('gateways.empty.title')}
            description={t('gateways.empty.description')}
            noMatchTitle={t('gateways.empty.noMatchTitle')}
            noMatchDescription={t('gateways.empty.noMatch')}
            clearLabel={t('clearFilters')}
            onClear={() => update({ name: '', type: '' })}
            clearTestId="payment-clear-filters"
            create={root ? { label: t('create'), onClick: onCreate } : undefined}
          />
        }
      >
        <GatewaysTable
          gateways={gateways.data?.data ?? []}
          loading={gateways.isLoading}
          order={params.order}
          onSort={(order) => update({ order })}
          compact={compact}
          onEdit={onEdit}
          onDelete={root ? setDeleting : undefined}
        />
      </ListPanel>
      <DeleteGatewayDialog gateway={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
