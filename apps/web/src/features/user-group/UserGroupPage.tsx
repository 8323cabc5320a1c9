import Add from '@mui/icons-material/Add';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { UserGroupView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { describeError, notify } from '../../lib/notify.js';
import { DeleteUserGroupDialog } from './DeleteUserGroupDialog.js';
import { UserGroupFormDialog } from './UserGroupFormDialog.js';
import { UserGroupsTable } from './UserGroupsTable.js';
import { type UserGroupListParams, useUserGroups } from './userGroup.api.js';
import { USER_GROUP_PAGE_SIZES, useUserGroupListParams } from './useUserGroupListParams.js';

export function UserGroupPage() {
  const { t } = useTranslation('userGroup');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const [params, update] = useUserGroupListParams();
  const search = useCallback((name: string) => update({ name }), [update]);
  const groups = useUserGroups(params);
  const form = useDialogSubject<UserGroupView>();
  const [deleting, setDeleting] = useState<UserGroupView | null>(null);

  const rows = groups.data?.data ?? [];
  const total = groups.data?.total_count ?? 0;
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    { loaded: Boolean(groups.data), rows: rows.length, total, page: params.page, size: params.size },
    goToPage,
  );
  const openForm = (group: UserGroupView | null) => {
    form.show(group);
  };

  const filtered = Boolean(params.name || params.enable);
  const loadingFirstPage = groups.isLoading;
  const failed = groups.isError && !groups.data;
  const empty = !loadingFirstPage && !failed && rows.length === 0;

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => openForm(null)}
            data-testid="user-group-create"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('create')}
          </Button>
        }
      />
      <Card>
        <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
          <SearchField
            value={params.name}
            onSearch={search}
            placeholder={t('searchPlaceholder')}
            label={t('searchLabel')}
            testId="user-group-search"
            sx={{ flex: 1, minWidth: 0, maxWidth: { sm: 300 } }}
          />
          <TextField
            select
            size="small"
            value={params.enable}
            onChange={(event) => update({ enable: event.target.value as UserGroupListParams['enable'] })}
            sx={{ width: { xs: 118, sm: 160 }, flexShrink: 0 }}
            slotProps={{
              select: {
                displayEmpty: true,
                SelectDisplayProps: {
                  'data-testid': 'user-group-filter-enable',
                  'aria-label': t('filter.label'),
                } as object,
              },
            }}
          >
            <MenuItem value="">{t('filter.all')}</MenuItem>
            <MenuItem value="true" data-testid="user-group-filter-enabled">
              {t('filter.enabled')}
            </MenuItem>
            <MenuItem value="false" data-testid="user-group-filter-disabled">
              {t('filter.disabled')}
            </MenuItem>
          </TextField>
          <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
          <RefreshButton label={t('refresh')} onClick={() => void groups.refetch()} testId="user-group-refresh" />
        </Stack>
        <FetchingBar active={groups.isFetching && !loadingFirstPage} />
        <Divider />

        {failed ? (
          <Box sx={{ p: 2 }}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void groups.refetch()}>
                  {t('common:retry')}
                </Button>
              }
              data-testid="user-group-load-error"
            >
              {describeError(groups.error)}
            </Alert>
          </Box>
        ) : empty ? (
          <ListEmptyState
            icon={GroupsOutlined}
            title={filtered ? t('empty.noMatchTitle') : t('empty.title')}
            description={filtered ? t('empty.noMatch') : t('empty.description')}
            action={
              filtered ? (
                <Button onClick={() => update({ name: '', enable: '' })} data-testid="user-group-clear-filters">
                  {t('empty.clearFilters')}
                </Button>
              ) : (
                <Button variant="outlined" startIcon={<Add />} onClick={() => openForm(null)}>
                  {t('create')}
                </Button>
              )
            }
            testId="user-group-empty"
          />
        ) : (
          <UserGroupsTable
            groups={rows}
            loading={loadingFirstPage}
            order={params.order}
            onSort={(order) => update({ order })}
            compact={compact}
            onEdit={openForm}
            onDelete={setDeleting}
          />
        )}

        <ListPagination
          total={total}
          page={params.page}
          lastPage={lastPage}
          size={params.size}
          sizes={USER_GROUP_PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="user-group-pagination"
        />
      </Card>

      <UserGroupFormDialog
        open={form.open}
        session={form.session}
        group={form.subject}
        onClose={() => form.close()}
        onSaved={(group, created) => {
          form.close();
          notify.success(created ? t('notify.created', { name: group.name }) : t('notify.saved'));
        }}
      />
      <DeleteUserGroupDialog group={deleting} onClose={() => setDeleting(null)} />
    </Box>
  );
}
