import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { RedemptionView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList, SkeletonRows } from '../../components/ListSkeletons.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { SortableHead as SharedSortableHead } from '../../components/SortableHead.js';
import { Timestamp } from '../../components/Timestamp.js';
import { RedemptionActions, type RedemptionRowHandlers, RedemptionStatusSwitch } from './RedemptionActions.js';
import { RedemptionStatusChip } from './RedemptionStatusChip.js';
import type { RedemptionSortField } from './useRedemptionListParams.js';

interface RedemptionsTableProps extends RedemptionRowHandlers {
  codes: RedemptionView[];
  loading: boolean;
  order: string;
  onSort(order: string): void;
  /** Cards instead of a table (narrow screens). */
  compact: boolean;
}

const monospace = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** The actions stay in view while a narrow table scrolls sideways. */
const stickyEnd = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

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

function SortableHead(props: {
  field: RedemptionSortField;
  order: string;
  onSort(order: string): void;
  children: ReactNode;
  align?: 'right';
}) {
  return <SharedSortableHead {...props} testId={`redemption-sort-${props.field}`} />;
}

const COLUMN_COUNT = 7;

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
export function RedemptionsTable({ codes, loading, order, onSort, compact, onEdit, onDelete }: RedemptionsTableProps) {
  const { t } = useTranslation('redemption');

  if (compact) {
    return (
      <CardList testId="redemption-list" loading={loading && codes.length === 0} skeletonHeight={170}>
        {codes.map((code) => (
          <CodeCard key={code.id} code={code} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </CardList>
    );
  }

  const sortProps = { order, onSort };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 880, '& td, & th': { whiteSpace: 'nowrap', px: 1.5 } }}
        data-testid="redemption-list"
      >
        <TableHead>
          <TableRow>
            <SortableHead field="id" {...sortProps}>
              {t('columns.id')}
            </SortableHead>
            <SortableHead field="name" {...sortProps}>
              {t('columns.name')}
            </SortableHead>
            <SortableHead field="quota" align="right" {...sortProps}>
              {t('columns.quota')}
            </SortableHead>
            <SortableHead field="status" {...sortProps}>
              {t('columns.status')}
            </SortableHead>
            <SortableHead field="created_time" {...sortProps}>
              {t('columns.created')}
            </SortableHead>
            <SortableHead field="redeemed_time" {...sortProps}>
              {t('columns.redeemed')}
            </SortableHead>
            <TableCell align="right" sx={stickyEnd}>
              {t('columns.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && codes.length === 0 ? (
            <SkeletonRows columns={COLUMN_COUNT} />
          ) : (
            codes.map((code) => (
              <TableRow key={code.id} hover data-testid={`redemption-row-${code.id}`}>
                <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>{code.id}</TableCell>
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
                <TableCell align="right" sx={stickyEnd}>
                  <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
                    <RedemptionActions code={code} onEdit={onEdit} onDelete={onDelete} />
                  </Stack>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
