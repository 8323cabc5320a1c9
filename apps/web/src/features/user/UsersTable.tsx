import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { UserGroupView, UserSortField, UserView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ListTable } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { nextOrder } from '../../components/SortableHead.js';
import { Timestamp } from '../../components/Timestamp.js';
import { UserActions, type UserRowHandlers } from './UserActions.js';
import { GroupChip, RoleChip, StatusChip } from './UserChips.js';
import type { UserPermissions } from './userPermissions.js';

interface UsersTableProps extends ListRows<UserView>, UserRowHandlers {
  groups: Record<string, UserGroupView>;
  permissionsOf(user: UserView): UserPermissions;
}

function SortLabel({
  field,
  order,
  onSort,
  children,
  align,
}: {
  field: UserSortField;
  order: string;
  onSort(order: string): void;
  children: ReactNode;
  align?: 'right';
}) {
  const active = order.replace(/^-/, '') === field;
  const descending = order.startsWith('-');
  return (
    <TableSortLabel
      active={active}
      direction={active && !descending ? 'asc' : 'desc'}
      onClick={() => onSort(nextOrder(order, field))}
      // The label would inherit the column direction of the stack it sits in.
      sx={{ flexDirection: align === 'right' ? 'row-reverse' : 'row' }}
      data-testid={`user-sort-${field}`}
    >
      {children}
    </TableSortLabel>
  );
}

/** A header with one sort label, or two stacked ones for a cell that shows two values. */
function SortableHead({
  fields,
  order,
  onSort,
  align,
}: {
  fields: Array<[UserSortField, string]>;
  order: string;
  onSort(order: string): void;
  align?: 'right';
}) {
  const activeField = fields.find(([field]) => order.replace(/^-/, '') === field);
  return (
    <TableCell align={align} sortDirection={activeField ? (order.startsWith('-') ? 'desc' : 'asc') : false}>
      <Stack sx={{ alignItems: align === 'right' ? 'flex-end' : 'flex-start' }}>
        {fields.map(([field, label]) => (
          <SortLabel key={field} field={field} order={order} onSort={onSort} align={align}>
            {label}
          </SortLabel>
        ))}
      </Stack>
    </TableCell>
  );
}

function NameCell({ user }: { user: UserView }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`user-name-${user.id}`}>
        {user.username}
      </Typography>
      {user.display_name && user.display_name !== user.username && (
        <Typography
          variant="caption"
          noWrap
          sx={{ display: 'block', color: 'text.secondary' }}
          data-testid={`user-display-name-${user.id}`}
        >
          {user.display_name}
        </Typography>
      )}
    </Box>
  );
}

function UsageCell({ user }: { user: UserView }) {
  const { t } = useTranslation('user');
  return (
    <Box>
      <Quota value={user.used_quota} testId={`user-used-${user.id}`} />
      <Typography
        variant="caption"
        sx={{ display: 'block', color: 'text.secondary' }}
        data-testid={`user-requests-${user.id}`}
        data-count={user.request_count}
      >
        {t('requests', { count: user.request_count, value: user.request_count.toLocaleString() })}
      </Typography>
    </Box>
  );
}

function TimesCell({ user }: { user: UserView }) {
  const { t } = useTranslation('user');
  return (
    <Box>
      <Typography variant="body2" component="div">
        <Timestamp value={user.created_time} testId={`user-created-${user.id}`} />
      </Typography>
      <Typography
        variant="caption"
        component="div"
        sx={{ color: 'text.secondary' }}
        data-testid={`user-last-login-${user.id}`}
        title={user.last_login_ip || undefined}
      >
        {user.last_login_time ? <Timestamp value={user.last_login_time} /> : t('neverSignedIn')}
      </Typography>
    </Box>
  );
}

const COLUMN_COUNT = 9;

type RowProps = {
  user: UserView;
  groups: Record<string, UserGroupView>;
  permissions: UserPermissions;
} & UserRowHandlers;

function UserCard({ user, groups, permissions, ...handlers }: RowProps) {
  const { t } = useTranslation('user');
  const facts: CardFact[] = [
    [t('columns.quota'), <Quota key="quota" value={user.quota} testId={`user-quota-${user.id}`} />],
    [t('columns.used'), <UsageCell key="used" user={user} />],
    [
      t('columns.group'),
      <GroupChip key="group" symbol={user.group} group={groups[user.group]} testId={`user-group-${user.id}`} />,
    ],
    [t('columns.role'), <RoleChip key="role" role={user.role} testId={`user-role-${user.id}`} />],
    [t('columns.created'), <Timestamp key="created" value={user.created_time} />],
    [
      t('columns.lastLogin'),
      user.last_login_time ? <Timestamp key="login" value={user.last_login_time} /> : t('neverSignedIn'),
    ],
  ];
  return (
    <RowCard
      testId={`user-row-${user.id}`}
      facts={facts}
      header={
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums', pt: 0.1 }}>
            #{user.id}
          </Typography>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <NameCell user={user} />
          </Box>
          <StatusChip status={user.status} testId={`user-status-${user.id}`} />
        </>
      }
      footer={<UserActions user={user} permissions={permissions} {...handlers} />}
      footerJustify="flex-end"
    />
  );
}

function UserRow({ user, groups, permissions, ...handlers }: RowProps) {
  return (
    <TableRow hover data-testid={`user-row-${user.id}`}>
      <TableCell
        sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
        data-testid={`user-id-${user.id}`}
      >
        {user.id}
      </TableCell>
      <TableCell sx={{ maxWidth: 180 }}>
        <NameCell user={user} />
      </TableCell>
      <TableCell>
        <GroupChip symbol={user.group} group={groups[user.group]} testId={`user-group-${user.id}`} />
      </TableCell>
      <TableCell align="right">
        <Quota value={user.quota} testId={`user-quota-${user.id}`} />
      </TableCell>
      <TableCell align="right">
        <UsageCell user={user} />
      </TableCell>
      <TableCell>
        <RoleChip role={user.role} testId={`user-role-${user.id}`} />
      </TableCell>
      <TableCell>
        <StatusChip status={user.status} testId={`user-status-${user.id}`} />
      </TableCell>
      <TableCell>
        <TimesCell user={user} />
      </TableCell>
      <ActionsCell>
        <UserActions user={user} permissions={permissions} {...handlers} />
      </ActionsCell>
    </TableRow>
  );
}

/** The user list: a table on wide screens, cards on narrow ones. */
export function UsersTable({
  rows: users,
  loading,
  order,
  onSort,
  groups,
  permissionsOf,
  compact,
  ...handlers
}: UsersTableProps) {
  const { t } = useTranslation('user');

  const sortProps = { order, onSort };
  return (
    <ListTable
      testId="user-list"
      loading={loading && users.length === 0}
      compact={compact}
      cards={users.map((user) => (
        <UserCard key={user.id} user={user} groups={groups} permissions={permissionsOf(user)} {...handlers} />
      ))}
      cardHeight={200}
      minWidth={960}
      columns={COLUMN_COUNT}
      actionsLabel={t('columns.actions')}
      head={
        <>
          <SortableHead fields={[['id', t('columns.id')]]} {...sortProps} />
          <SortableHead fields={[['username', t('columns.user')]]} {...sortProps} />
          <TableCell>{t('columns.group')}</TableCell>
          <SortableHead fields={[['quota', t('columns.quota')]]} align="right" {...sortProps} />
          <SortableHead
            fields={[
              ['used_quota', t('columns.used')],
              ['request_count', t('columns.requests')],
            ]}
            align="right"
            {...sortProps}
          />
          <SortableHead fields={[['role', t('columns.role')]]} {...sortProps} />
          <SortableHead fields={[['status', t('columns.status')]]} {...sortProps} />
          <SortableHead
            fields={[
              ['created_time', t('columns.created')],
              ['last_login_time', t('columns.lastLogin')],
            ]}
            {...sortProps}
          />
        </>
      }
    >
      {users.map((user) => (
        <UserRow key={user.id} user={user} groups={groups} permissions={permissionsOf(user)} {...handlers} />
      ))}
    </ListTable>
  );
}
