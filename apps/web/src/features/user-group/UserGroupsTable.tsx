import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UserGroupSortField, UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ColumnHeads, IdCell, type ListColumn, ListTable } from '../../components/ListTable.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import {
  ApiRateText,
  EnableSwitch,
  PromotionText,
  PublicChip,
  RatioText,
  SymbolCell,
  UserGroupActions,
  type UserGroupRowHandlers,
} from './UserGroupCells.js';

type UserGroupsTableProps = ListRows<UserGroupView> & UserGroupRowHandlers;

function GroupCard({ group, ...handlers }: { group: UserGroupView } & UserGroupRowHandlers) {
  const { t } = useTranslation('userGroup');
  const groupName = useGroupName();
  const facts: CardFact[] = [
    [t('columns.ratio'), <RatioText key="ratio" group={group} />],
    [t('columns.apiRate'), <ApiRateText key="rate" group={group} />],
    [t('columns.public'), <PublicChip key="public" group={group} />],
    [t('columns.promotion'), <PromotionText key="promotion" group={group} />],
  ];
  return (
    <RowCard
      testId={`user-group-row-${group.id}`}
      facts={facts}
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`user-group-name-${group.id}`}>
              {groupName(group)}
            </Typography>
            <SymbolCell group={group} />
          </Box>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            #{group.id}
          </Typography>
        </>
      }
      footer={
        <>
          <EnableSwitch group={group} />
          <UserGroupActions group={group} {...handlers} />
        </>
      }
    />
  );
}

/** The group list: a table on wide screens, cards on narrow ones. */
export function UserGroupsTable({ rows: groups, loading, order, onSort, compact, ...handlers }: UserGroupsTableProps) {
  const { t } = useTranslation('userGroup');
  const groupName = useGroupName();
  const columns: ListColumn<UserGroupSortField>[] = [
    { label: t('columns.id'), field: 'id' },
    { label: t('columns.symbol'), field: 'symbol' },
    { label: t('columns.name'), field: 'name' },
    { label: t('columns.ratio'), field: 'ratio', align: 'right' },
    { label: t('columns.apiRate'), field: 'api_rate', align: 'right' },
    { label: t('columns.public') },
    { label: t('columns.promotion') },
    { label: t('columns.enabled'), field: 'enable' },
  ];
  return (
    <ListTable
      testId="user-group-list"
      loading={loading && groups.length === 0}
      compact={compact}
      cards={groups.map((group) => <GroupCard key={group.id} group={group} {...handlers} />)}
      cardHeight={170}
      minWidth={860}
      columns={columns.length + 1}
      actionsLabel={t('columns.actions')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="user-group-sort" />}
    >
      {groups.map((group) => (
        <TableRow key={group.id} hover data-testid={`user-group-row-${group.id}`}>
          <IdCell id={group.id} />
          <TableCell sx={{ maxWidth: 220 }}>
            <SymbolCell group={group} />
          </TableCell>
          <TableCell sx={{ maxWidth: 200 }}>
            <Typography variant="body2" noWrap data-testid={`user-group-name-${group.id}`}>
              {groupName(group)}
            </Typography>
          </TableCell>
          <TableCell align="right">
            <RatioText group={group} />
          </TableCell>
          <TableCell align="right">
            <ApiRateText group={group} />
          </TableCell>
          <TableCell>
            <PublicChip group={group} />
          </TableCell>
          <TableCell>
            <PromotionText group={group} />
          </TableCell>
          <TableCell>
            <EnableSwitch group={group} />
          </TableCell>
          <ActionsCell>
            <UserGroupActions group={group} {...handlers} />
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
