import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ManageAction, UserView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSession } from '../../hooks/useSession.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { describeError, notify } from '../../lib/notify.js';
import { ManageUserDialog, type PendingAction } from './ManageUserDialog.js';
import { QuotaDialog } from './QuotaDialog.js';
import { UserFormDialog } from './UserFormDialog.js';
import { UsersTable } from './UsersTable.js';
import { useGroupDirectory } from './useGroupDirectory.js';
import { useManageUser, useUsers } from './user.api.js';
import { permissionsFor } from './userPermissions.js';
import { USER_PAGE_SIZES, useUserListParams } from './useUserListParams.js';

export function UserPage() {
  const { t } = useTranslation('user');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const { user: caller } = useSession();
  const format = useQuotaFormatter();
  const [params, update] = useUserListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const users = useUsers(params);
  const groups = useGroupDirectory();
  const manage = useManageUser();
  const form = useDialogSubject<UserView>();
  const quota = useDialogSubject<UserView>();
  const [pending, setPending] = useState<PendingAction | null>(null);

  const rows = users.data?.data ?? [];
  const total = users.data?.total_count ?? 0;
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    { loaded: Boolean(users.data), rows: rows.length, total, page: params.page, size: params.size },
    goToPage,
  );

  const openForm = (user: UserView | null) => {
    form.show(user);
  };
  const openQuota = (user: UserView) => {
    quota.show(user);
  };
  const onManage = (user: UserView, action: ManageAction) => {
    if (action === 'enable') {
      manage.mutate(
        { username: user.username, action },
        { onSuccess: () => notify.success(t('notify.enable', { name: user.username })) },
      );
      return;
    }
    setPending({ user, action });
  };
  const permissionsOf = (user: UserView) => permissionsFor(caller ?? { id: 0, role: 0 }, user);

  const loadingFirstPage = users.isLoading;
  const failed = users.isError && !users.data;
  const empty = !loadingFirstPage && !failed && rows.length === 0;

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="contained"
            startIcon={<PersonAddAlt1Outlined />}
            onClick={() => openForm(null)}
            data-testid="user-create"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('create')}
          </Button>
        }
      />

      <Card>
        <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex' }}>
            <SearchField
              value={params.keyword}
              onSearch={search}
              placeholder={t('searchPlaceholder')}
              label={t('searchLabel')}
              testId="user-search"
              fullWidth
              sx={{ maxWidth: { sm: 380 } }}
            />
          </Box>
          <RefreshButton label={t('refresh')} onClick={() => void users.refetch()} testId="user-refresh" />
        </Stack>
        <FetchingBar active={users.isFetching && !loadingFirstPage} />
        <Divider />

        {failed ? (
          <Box sx={{ p: 2 }}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void users.refetch()}>
                  {t('common:retry')}
                </Button>
              }
              data-testid="user-load-error"
            >
              {describeError(users.error)}
            </Alert>
          </Box>
        ) : empty ? (
          <ListEmptyState
            icon={PeopleAltOutlined}
            title={params.keyword ? t('empty.noMatchTitle') : t('empty.title')}
            description={params.keyword ? t('empty.noMatch', { keyword: params.keyword }) : t('empty.description')}
            action={
              params.keyword ? (
                <Button onClick={() => update({ keyword: '' })} data-testid="user-clear-search">
                  {t('empty.clearSearch')}
                </Button>
              ) : undefined
            }
            testId="user-empty"
          />
        ) : (
          <UsersTable
            users={rows}
            loading={loadingFirstPage}
            order={params.order}
            onSort={(order) => update({ order })}
            groups={groups.bySymbol}
            permissionsOf={permissionsOf}
            compact={compact}
            onEdit={openForm}
            onQuota={openQuota}
            onManage={onManage}
          />
        )}

        <ListPagination
          total={total}
          page={params.page}
          lastPage={lastPage}
          size={params.size}
          sizes={USER_PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="user-pagination"
        />
      </Card>

      <UserFormDialog
        open={form.open}
        session={form.session}
        user={form.subject}
        groups={groups.list}
        onClose={() => form.close()}
        onSaved={(user, created) => {
          form.close();
          notify.success(created ? t('notify.created', { name: user.username }) : t('notify.saved'));
        }}
      />
      <QuotaDialog
        open={quota.open}
        session={quota.session}
        user={quota.subject}
        onClose={() => quota.close()}
        onDone={(user) => {
          quota.close();
          notify.success(t('notify.quota', { name: user.username, balance: format(user.quota) }));
        }}
      />
      <ManageUserDialog pending={pending} onClose={() => setPending(null)} />
    </Box>
  );
}
