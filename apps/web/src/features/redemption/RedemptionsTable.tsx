import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { RedemptionView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ColumnHeads, IdCell, type ListColumn, ListTable } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { Timestamp } from '../../components/Timestamp.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { RedemptionActions, type RedemptionRowHandlers, RedemptionStatusSwitch } from './RedemptionActions.js';
import { RedemptionStatusChip } from './RedemptionStatusChip.js';
import type { RedemptionSortField } from './useRedemptionListParams.js';

type RedemptionsTableProps = ListRows<RedemptionView> & RedemptionRowHandlers;

const monospace = monospaceFontStack;

/** The start and end of a code: enough to tell codes apart at a glance; the copy button gives all of it. */
function shortKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 6)}…${key.slice(-4)}` : key;
}

function NameCell({ code }: { code: RedemptionView }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`redemption-name-${code.id}`}>
        {code.name}
      </Typography>
      <Typography
        variant="caption"
        noWrap
        title={code.key}
        sx={{ display: 'block', color: 'text.secondary', fontFamily: monospace }}
        data-testid={`redemption-key-${code.id}`}
      >
        {code.key ? shortKey(code.key) : '—'}
      </Typography>
    </Box>
  );
}

function Muted() {
  return (
    <Box component="span" sx={{ color: 'text.disabled' }}>
      —
    </Box>
  );
}

/** When a code was redeemed, and by whom (the username, or the account id when that account is gone). */
function RedeemedCell({ code }: { code: RedemptionView }) {
  const { t } = useTranslation('redemption');
  if (!code.redeemed_time) return <Muted />;
  const who = code.redeemed_username || (code.redeemed_user_id ? `#${code.redeemed_user_id}` : '');
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2">
        <Timestamp value={code.redeemed_time} />
      </Typography>
      {who && (
        <Typography
          variant="caption"
          noWrap
          sx={{ display: 'block', color: 'text.secondary' }}
          data-testid={`redemption-redeemer-${code.id}`}
        >
          {t('redeemedBy', { user: who })}
        </Typography>
      )}
    </Box>
  );
}

function CodeCard({ code, onEdit, onDelete }: { code: RedemptionView } & RedemptionRowHandlers) {
  const { t } = useTranslation('redemption');
  const facts: CardFact[] = [
    [t('columns.quota'), <Quota key="quota" value={code.quota} testId={`redemption-quota-${code.id}`} />],
    [t('columns.id'), <span key="id">{code.id}</span>],
    [t('columns.created'), <Timestamp key="created" value={code.created_time} />],
    [t('columns.redeemed'), <RedeemedCell key="redeemed" code={code} />],
  ];
  return (
    <RowCard
      testId={`redemption-row-${code.id}`}
      facts={facts}
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <NameCell code={code} />
          </Box>
          <RedemptionStatusChip status={code.status} testId={`redemption-status-${code.id}`} />
        </>
      }
      footer={
        <>
          <RedemptionStatusSwitch code={code} />
          <RedemptionActions code={code} onEdit={onEdit} onDelete={onDelete} />
        </>
      }
    />
  );
}

/** The code list: a table on wide screens, cards on narrow ones. */
export function RedemptionsTable({
  rows: codes,
  loading,
  order,
  onSort,
  compact,
  onEdit,
  onDelete,
}: RedemptionsTableProps) {
  const { t } = useTranslation('redemption');

  const columns: ListColumn<RedemptionSortField>[] = [
    { label: t('columns.id'), field: 'id' },
    { label: t('columns.name'), field: 'name' },
    { label: t('columns.quota'), field: 'quota', align: 'right' },
    { label: t('columns.status'), field: 'status' },
    { label: t('columns.created'), field: 'created_time' },
    { label: t('columns.redeemed'), field: 'redeemed_time' },
  ];
  return (
    <ListTable
      testId="redemption-list"
      loading={loading && codes.length === 0}
      compact={compact}
      cards={codes.map((code) => <CodeCard key={code.id} code={code} onEdit={onEdit} onDelete={onDelete} />)}
      cardHeight={170}
      minWidth={880}
      columns={columns.length + 1}
      actionsLabel={t('columns.actions')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="redemption-sort" />}
    >
      {codes.map((code) => (
        <TableRow key={code.id} hover data-testid={`redemption-row-${code.id}`}>
          <IdCell id={code.id} />
          <TableCell sx={{ maxWidth: 240 }}>
            <NameCell code={code} />
          </TableCell>
          <TableCell align="right">
            <Quota value={code.quota} testId={`redemption-quota-${code.id}`} />
          </TableCell>
          <TableCell>
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              <RedemptionStatusSwitch code={code} />
              <RedemptionStatusChip status={code.status} testId={`redemption-status-${code.id}`} />
            </Stack>
          </TableCell>
          <TableCell>
            <Timestamp value={code.created_time} />
          </TableCell>
          <TableCell>
            <RedeemedCell code={code} />
          </TableCell>
          <ActionsCell>
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              <RedemptionActions code={code} onEdit={onEdit} onDelete={onDelete} />
            </Stack>
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
