import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PaymentGatewayView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ActionsCell, ColumnHeads, type ListColumn, ListTable } from '../../components/ListTable.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { formatPaymentAmount } from '../../lib/format.js';
import {
  GatewayActions,
  GatewayEnableSwitch,
  type GatewayRowHandlers,
  GatewaySortField,
  NotifyCell,
} from './GatewayActions.js';

type GatewayOrderField = 'id' | 'name' | 'type' | 'sort' | 'enable' | 'created_at';

interface GatewaysTableProps extends GatewayRowHandlers {
  gateways: PaymentGatewayView[];
  loading: boolean;
  order: string;
  onSort(order: string): void;
  compact: boolean;
}

/** "2.5%" or "$0.30": the fee as configured; the fixed fee is in US dollars (reference §4.10). */
function useFeeText() {
  const { t } = useTranslation('payment');
  // Only one applies: the percentage wins when both are set, as the server charges it.
  return (gateway: PaymentGatewayView) => {
    if (gateway.percent_fee > 0) return `${Number((gateway.percent_fee * 100).toFixed(4))}%`;
    if (gateway.fixed_fee > 0) return formatPaymentAmount(gateway.fixed_fee, 'USD');
    return t('noFee');
  };
}

function NameCell({ gateway }: { gateway: PaymentGatewayView }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      {gateway.icon && (
        <Box component="img" src={gateway.icon} alt="" sx={{ width: 22, height: 22, objectFit: 'contain' }} />
      )}
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`payment-name-${gateway.id}`}>
        {gateway.name}
      </Typography>
    </Box>
  );
}

function TypeChip({ gateway }: { gateway: PaymentGatewayView }) {
  const { t } = useTranslation('payment');
  return <Chip size="small" variant="outlined" label={t(`types.${gateway.type}`)} />;
}

function GatewayCard({ gateway, onEdit, onDelete }: { gateway: PaymentGatewayView } & GatewayRowHandlers) {
  const { t } = useTranslation('payment');
  const feeText = useFeeText();
  const facts: CardFact[] = [
    [t('columns.currency'), gateway.currency],
    [t('columns.fee'), feeText(gateway)],
    [t('columns.sort'), <GatewaySortField key="sort" gateway={gateway} />],
    [t('columns.uuid'), <NotifyCell key="uuid" gateway={gateway} />],
  ];
  return (
    <RowCard
      testId={`payment-row-${gateway.id}`}
      facts={facts}
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <NameCell gateway={gateway} />
          </Box>
          <TypeChip gateway={gateway} />
        </>
      }
      footer={
        <>
          <GatewayEnableSwitch gateway={gateway} />
          <GatewayActions gateway={gateway} onEdit={onEdit} onDelete={onDelete} />
        </>
      }
    />
  );
}

/** The gateway list: a table on wide screens, cards on phones. */
export function GatewaysTable({ gateways, loading, order, onSort, compact, onEdit, onDelete }: GatewaysTableProps) {
  const { t } = useTranslation('payment');
  const feeText = useFeeText();
  const columns: ListColumn<GatewayOrderField>[] = [
    { label: t('columns.name'), field: 'name' },
    { label: t('columns.type'), field: 'type' },
    { label: t('columns.currency') },
    { label: t('columns.fee') },
    { label: t('columns.sort'), field: 'sort' },
    { label: t('columns.enable'), field: 'enable' },
    { label: t('columns.uuid') },
  ];
  return (
    <ListTable
      testId="payment-gateway-list"
      loading={loading && gateways.length === 0}
      compact={compact}
      cards={gateways.map((gateway) => (
        <GatewayCard key={gateway.id} gateway={gateway} onEdit={onEdit} onDelete={onDelete} />
      ))}
      cardHeight={190}
      minWidth={960}
      columns={columns.length + 1}
      actionsLabel={t('columns.actions')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="payment-sort-by" />}
    >
      {gateways.map((gateway) => (
        <TableRow key={gateway.id} hover data-testid={`payment-row-${gateway.id}`}>
          <TableCell sx={{ maxWidth: 220 }}>
            <NameCell gateway={gateway} />
          </TableCell>
          <TableCell>
            <TypeChip gateway={gateway} />
          </TableCell>
          <TableCell>{gateway.currency}</TableCell>
          <TableCell sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{feeText(gateway)}</TableCell>
          <TableCell>
            <GatewaySortField gateway={gateway} />
          </TableCell>
          <TableCell>
            <GatewayEnableSwitch gateway={gateway} />
          </TableCell>
          <TableCell sx={{ maxWidth: 220 }}>
            <NotifyCell gateway={gateway} />
          </TableCell>
          <ActionsCell>
            <GatewayActions gateway={gateway} onEdit={onEdit} onDelete={onDelete} />
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
