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
import { NEVER_EXPIRES, type TokenView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList, SkeletonRows } from '../../components/ListSkeletons.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { SortableHead as SharedSortableHead } from '../../components/SortableHead.js';
import { Timestamp } from '../../components/Timestamp.js';
import { TokenActions, type TokenRowHandlers, TokenStatusSwitch } from './TokenActions.js';
import { TokenStatusChip, tokenState } from './TokenStatusChip.js';
import type { TokenSortField } from './useTokenListParams.js';

interface TokensTableProps extends TokenRowHandlers {
  tokens: TokenView[];
  loading: boolean;
  order: string;
  onSort(order: string): void;
  nowSeconds: number;
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

function Remaining({ token }: { token: TokenView }) {
  const { t } = useTranslation('token');
  if (token.unlimited_quota) {
    return (
      <Box component="span" sx={{ color: 'success.main', fontWeight: 600 }} data-testid={`token-remain-${token.id}`}>
        {t('unlimited')}
      </Box>
    );
  }
  return <Quota value={token.remain_quota} testId={`token-remain-${token.id}`} />;
}

function Expiry({ token, nowSeconds }: { token: TokenView; nowSeconds: number }) {
  const { t } = useTranslation('token');
  const never = token.expired_time === NEVER_EXPIRES || token.expired_time === 0;
  if (never) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }} data-testid={`token-expiry-${token.id}`}>
        {t('never')}
      </Box>
    );
  }
  return (
    <Box
      component="span"
      sx={{ color: token.expired_time <= nowSeconds ? 'warning.main' : 'inherit' }}
      data-testid={`token-expiry-${token.id}`}
    >
      <Timestamp value={token.expired_time} />
    </Box>
  );
}

function Group({ token }: { token: TokenView }) {
  const { t } = useTranslation('token');
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap sx={{ color: token.group ? 'text.primary' : 'text.secondary' }}>
        {token.group || t('groupDefault')}
      </Typography>
      {token.backup_group && (
        <Typography variant="caption" noWrap sx={{ color: 'text.secondary', display: 'block' }}>
          {t('backupShort', { group: token.backup_group })}
        </Typography>
      )}
    </Box>
  );
}

function NameCell({ token }: { token: TokenView }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`token-name-${token.id}`}>
        {token.name}
      </Typography>
      <Typography
        variant="caption"
        noWrap
        sx={{ display: 'block', color: 'text.secondary', fontFamily: monospace }}
        data-testid={`token-masked-key-${token.id}`}
      >
        {token.key}
      </Typography>
    </Box>
  );
}

function SortableHead(props: {
  field: TokenSortField;
  order: string;
  onSort(order: string): void;
  children: ReactNode;
  align?: 'right';
}) {
  return <SharedSortableHead {...props} testId={`token-sort-${props.field}`} />;
}

const COLUMN_COUNT = 8;

function TokenCard({
  token,
  nowSeconds,
  onEdit,
  onDelete,
}: { token: TokenView; nowSeconds: number } & TokenRowHandlers) {
  const { t } = useTranslation('token');
  const facts: CardFact[] = [
    [t('columns.remaining'), <Remaining key="remaining" token={token} />],
    [t('columns.used'), <Quota key="used" value={token.used_quota} testId={`token-used-${token.id}`} />],
    [t('columns.created'), <Timestamp key="created" value={token.created_time} />],
    [t('columns.expires'), <Expiry key="expires" token={token} nowSeconds={nowSeconds} />],
  ];
  return (
    <RowCard
      testId={`token-row-${token.id}`}
      facts={facts}
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <NameCell token={token} />
          </Box>
          <TokenStatusChip state={tokenState(token, nowSeconds)} testId={`token-status-${token.id}`} />
        </>
      }
      footer={
        <>
          <TokenStatusSwitch token={token} />
          <TokenActions token={token} onEdit={onEdit} onDelete={onDelete} />
        </>
      }
    >
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          {t('columns.group')}
        </Typography>
        <Group token={token} />
      </Box>
    </RowCard>
  );
}

/** The key list: a table on wide screens, cards on narrow ones. */
export function TokensTable({
  tokens,
  loading,
  order,
  onSort,
  nowSeconds,
  compact,
  onEdit,
  onDelete,
}: TokensTableProps) {
  const { t } = useTranslation('token');

  if (compact) {
    return (
      <CardList testId="token-list" loading={loading && tokens.length === 0} skeletonHeight={180}>
        {tokens.map((token) => (
          <TokenCard key={token.id} token={token} nowSeconds={nowSeconds} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </CardList>
    );
  }

  const sortProps = { order, onSort };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 900, '& td, & th': { whiteSpace: 'nowrap', px: 1.5 } }}
        data-testid="token-list"
      >
        <TableHead>
          <TableRow>
            <SortableHead field="name" {...sortProps}>
              {t('columns.name')}
            </SortableHead>
            <SortableHead field="status" {...sortProps}>
              {t('columns.status')}
            </SortableHead>
            <SortableHead field="used_quota" align="right" {...sortProps}>
              {t('columns.used')}
            </SortableHead>
            <SortableHead field="remain_quota" align="right" {...sortProps}>
              {t('columns.remaining')}
            </SortableHead>
            <TableCell>{t('columns.group')}</TableCell>
            <SortableHead field="created_time" {...sortProps}>
              {t('columns.created')}
            </SortableHead>
            <SortableHead field="expired_time" {...sortProps}>
              {t('columns.expires')}
            </SortableHead>
            <TableCell align="right" sx={stickyEnd}>
              {t('columns.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && tokens.length === 0 ? (
            <SkeletonRows columns={COLUMN_COUNT} />
          ) : (
            tokens.map((token) => (
              <TableRow key={token.id} hover data-testid={`token-row-${token.id}`}>
                <TableCell sx={{ maxWidth: 240 }}>
                  <NameCell token={token} />
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                    <TokenStatusSwitch token={token} />
                    <TokenStatusChip state={tokenState(token, nowSeconds)} testId={`token-status-${token.id}`} />
                  </Stack>
                </TableCell>
                <TableCell align="right">
                  <Quota value={token.used_quota} testId={`token-used-${token.id}`} />
                </TableCell>
                <TableCell align="right">
                  <Remaining token={token} />
                </TableCell>
                <TableCell sx={{ maxWidth: 160 }}>
                  <Group token={token} />
                </TableCell>
                <TableCell>
                  <Timestamp value={token.created_time} />
                </TableCell>
                <TableCell>
                  <Expiry token={token} nowSeconds={nowSeconds} />
                </TableCell>
                <TableCell align="right" sx={stickyEnd}>
                  <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
                    <TokenActions token={token} onEdit={onEdit} onDelete={onDelete} />
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
