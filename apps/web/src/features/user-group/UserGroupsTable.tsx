import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UserGroupSortField, UserGroupView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList, SkeletonRows } from '../../components/ListSkeletons.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { SortableHead as SharedSortableHead } from '../../components/SortableHead.js';
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

interface UserGroupsTableProps extends UserGroupRowHandlers {
  groups: UserGroupView[];
  loading: boolean;
  order: string;
  onSort(order: string): void;
  compact: boolean;
}

const stickyEnd = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

function SortableHead(props: {
  field: UserGroupSortField;
  order: string;
  onSort(order: string): void;
  children: ReactNode;
  align?: 'right';
}) {
  return <SharedSortableHead {...props} testId={`user-group-sort-${props.field}`} />;
}

const COLUMN_COUNT = 9;

function GroupCard({ group, ...handlers }: { group: UserGroupView } & UserGroupRowHandlers) {
  const { t } = useTranslation('userGroup');
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
              {group.name}
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
export function UserGroupsTable({ groups, loading, order, onSort, compact, ...handlers }: UserGroupsTableProps) {
  const { t } = useTranslation('userGroup');
  if (compact) {
    return (
      <CardList testId="user-group-list" loading={loading && groups.length === 0} skeletonHeight={170}>
        {groups.map((group) => (
          <GroupCard key={group.id} group={group} {...handlers} />
        ))}
      </CardList>
    );
  }
  const sortProps = { order, onSort };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ minWidth: 860, '& td, & th': { whiteSpace: 'nowrap', px: 1.5 } }}
        data-testid="user-group-list"
      >
        <TableHead>
          <TableRow>
            <SortableHead field="id" {...sortProps}>
              {t('columns.id')}
            </SortableHead>
            <SortableHead field="symbol" {...sortProps}>
              {t('columns.symbol')}
            </SortableHead>
            <SortableHead field="name" {...sortProps}>
              {t('columns.name')}
            </SortableHead>
            <SortableHead field="ratio" align="right" {...sortProps}>
              {t('columns.ratio')}
            </SortableHead>
            <SortableHead field="api_rate" align="right" {...sortProps}>
              {t('columns.apiRate')}
            </SortableHead>
            <TableCell>{t('columns.public')}</TableCell>
            <TableCell>{t('columns.promotion')}</TableCell>
            <SortableHead field="enable" {...sortProps}>
              {t('columns.enabled')}
            </SortableHead>
            <TableCell align="right" sx={stickyEnd}>
              {t('columns.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && groups.length === 0 ? (
            <SkeletonRows columns={COLUMN_COUNT} />
          ) : (
            groups.map((group) => (
              <TableRow key={group.id} hover data-testid={`user-group-row-${group.id}`}>
                <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>{group.id}</TableCell>
                <TableCell sx={{ maxWidth: 220 }}>
                  <SymbolCell group={group} />
                </TableCell>
                <TableCell sx={{ maxWidth: 200 }}>
                  <Typography variant="body2" noWrap data-testid={`user-group-name-${group.id}`}>
                    {group.name}
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
                <TableCell align="right" sx={stickyEnd}>
                  <UserGroupActions group={group} {...handlers} />
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
