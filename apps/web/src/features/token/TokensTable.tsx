import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { clientKey, maskKey, NEVER_EXPIRES, PLAYGROUND_TOKEN_NAME, type TokenView } from '@one-hub/contracts';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ColumnHeads, type ListColumn, ListTable } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { Timestamp } from '../../components/Timestamp.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useSelf } from '../../hooks/useSelf.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { TokenActions, type TokenRowHandlers, TokenStatusSwitch } from './TokenActions.js';
import { TokenStatusChip, tokenState } from './TokenStatusChip.js';
import type { TokenRow } from './token.api.js';
import type { TokenSortField } from './useTokenListParams.js';

interface TokensTableProps extends ListRows<TokenRow>, TokenRowHandlers {
  nowSeconds: number;
  /** An administrator's list of other users' keys: an owner column, masked keys, fewer actions. */
  allUsers: boolean;
}

/** Whether the rows are other users' keys (see `allUsers`), for the cells deep in a row. */
const AllUsersContext = createContext(false);

const monospace = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

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

/** The key's group; a key without one uses its owner's group, which is named, not just called "the account's". */
function Group({ token }: { token: TokenView }) {
  const { t } = useTranslation('token');
  const groupName = useGroupName();
  const groups = useUserGroupMap();
  const self = useSelf();
  const allUsers = useContext(AllUsersContext);
  // Another user's key without a group uses that user's group, which this list does not carry.
  const symbol = token.group || (allUsers ? '' : self.data?.group);
  const caption = (text: string) => (
    <Typography variant="caption" noWrap sx={{ color: 'text.secondary', display: 'block' }}>
      {text}
    </Typography>
  );
  return (
    <Box sx={{ minWidth: 0 }} data-testid={`token-group-${token.id}`}>
      <Typography variant="body2" noWrap>
        {symbol ? groupName(groups.data?.[symbol], symbol) : allUsers ? t('admin.ownerGroup') : t('groupDefault')}
      </Typography>
      {!token.group && !allUsers && caption(t('groupInherited'))}
      {token.backup_group &&
        caption(t('backupShort', { group: groupName(groups.data?.[token.backup_group], token.backup_group) }))}
    </Box>
  );
}

/** The key the playground makes for itself (reference: unlimited, never expires), marked as the playground's. */
function PlaygroundChip({ token }: { token: TokenView }) {
  const { t } = useTranslation('token');
  if (token.name !== PLAYGROUND_TOKEN_NAME) return null;
  return (
    <Tooltip title={t('playgroundHint')} describeChild>
      <Chip
        size="small"
        variant="outlined"
        color="info"
        icon={<TerminalOutlined />}
        label={t('playgroundChip')}
        sx={{ height: 20, fontSize: '0.6875rem', flexShrink: 0 }}
        data-testid={`token-playground-${token.id}`}
      />
    </Tooltip>
  );
}

function NameCell({ token }: { token: TokenView }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`token-name-${token.id}`}>
          {token.name}
        </Typography>
        <PlaygroundChip token={token} />
      </Stack>
      <Typography
        variant="caption"
        noWrap
        sx={{ display: 'block', color: 'text.secondary', fontFamily: monospace }}
        data-testid={`token-masked-key-${token.id}`}
      >
        {token.key ? maskKey(clientKey(token.key)) : '—'}
      </Typography>
    </Box>
  );
}

/** The key's owner: their name over their user id (the id is what the filter and a transfer take). */
function OwnerCell({ token }: { token: TokenRow }) {
  const { t } = useTranslation('token');
  return (
    <Box sx={{ minWidth: 0 }} data-testid={`token-owner-${token.id}`} data-user-id={token.user_id}>
      <Typography variant="body2" noWrap>
        {token.owner_name || t('admin.ownerUnknown')}
      </Typography>
      <Typography variant="caption" noWrap sx={{ display: 'block', color: 'text.secondary' }}>
        {t('admin.userIdShort', { id: token.user_id })}
      </Typography>
    </Box>
  );
}

function TokenCard({
  token,
  nowSeconds,
  onEdit,
  onDelete,
}: { token: TokenRow; nowSeconds: number } & TokenRowHandlers) {
  const { t } = useTranslation('token');
  const allUsers = useContext(AllUsersContext);
  const facts: CardFact[] = [
    ...(allUsers ? [[t('admin.owner'), <OwnerCell key="owner" token={token} />] as CardFact] : []),
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
          <TokenStatusSwitch token={token} admin={allUsers} />
          <TokenActions token={token} onEdit={onEdit} onDelete={onDelete} admin={allUsers} />
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
  rows: tokens,
  loading,
  order,
  onSort,
  nowSeconds,
  compact,
  allUsers,
  onEdit,
  onDelete,
}: TokensTableProps) {
  const { t } = useTranslation('token');

  const columns: ListColumn<TokenSortField>[] = [
    { label: t('columns.name'), field: 'name' },
    ...(allUsers ? [{ label: t('admin.owner') }] : []),
    { label: t('columns.status'), field: 'status' },
    { label: t('columns.used'), field: 'used_quota', align: 'right' },
    { label: t('columns.remaining'), field: 'remain_quota', align: 'right' },
    { label: t('columns.group') },
    { label: t('columns.created'), field: 'created_time' },
    { label: t('columns.expires'), field: 'expired_time' },
  ];
  return (
    <AllUsersContext.Provider value={allUsers}>
      <ListTable
        testId="token-list"
        loading={loading && tokens.length === 0}
        compact={compact}
        cards={tokens.map((token) => (
          <TokenCard key={token.id} token={token} nowSeconds={nowSeconds} onEdit={onEdit} onDelete={onDelete} />
        ))}
        cardHeight={180}
        minWidth={900}
        columns={columns.length + 1}
        actionsLabel={t('columns.actions')}
        head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="token-sort" />}
      >
        {tokens.map((token) => (
          <TableRow key={token.id} hover data-testid={`token-row-${token.id}`}>
            <TableCell sx={{ maxWidth: 320 }}>
              <NameCell token={token} />
            </TableCell>
            {allUsers && (
              <TableCell sx={{ maxWidth: 180 }}>
                <OwnerCell token={token} />
              </TableCell>
            )}
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                <TokenStatusSwitch token={token} admin={allUsers} />
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
            <ActionsCell>
              <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
                <TokenActions token={token} onEdit={onEdit} onDelete={onDelete} admin={allUsers} />
              </Stack>
            </ActionsCell>
          </TableRow>
        ))}
      </ListTable>
    </AllUsersContext.Provider>
  );
}
