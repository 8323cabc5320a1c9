import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import type { ManageAction, UserView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSession } from '../../hooks/useSession.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { ManageUserDialog, type PendingAction } from './ManageUserDialog.js';
import { QuotaDialog } from './QuotaDialog.js';
import { UserFormDialog } from './UserFormDialog.js';
import { UsersTable } from './UsersTable.js';
import { useGroupDirectory } from './useGroupDirectory.js';
import { useManageUser, useUsers } from './user.api.js';
import { permissionsFor } from './userPermissions.js';
import { useUserListParams } from './useUserListParams.js';

export function UserPage() {
  const { t } = useTranslation('user');
  const words = useWords('user', 'list');
  const compact = useCompact('md');
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

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{
        label: words.create,
        onClick: () => openForm(null),
        testId: 'user-create',
        icon: <PersonAddAlt1Outlined />,
      }}
      query={users}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="user-pagination"
      toolbar={
        <ListToolbar
          search={{
            value: params.keyword,
            onSearch: search,
            ...words.search,
            testId: 'user-search',
            fullWidth: true,
            sx: { maxWidth: { sm: 380 } },
          }}
          refreshLabel={words.refresh}
          onRefresh={() => void users.refetch()}
          refreshTestId="user-refresh"
        />
      }
      error={<ListLoadError error={users.error} onRetry={() => void users.refetch()} testId="user-load-error" />}
      empty={
        <ListNoRows
          icon={PeopleAltOutlined}
          testId="user-empty"
          filtered={Boolean(params.keyword)}
          {...words.empty}
          noMatchDescription={t('empty.noMatch', { keyword: params.keyword })}
          clearLabel={t('empty.clearSearch')}
          onClear={() => update({ keyword: '' })}
          clearTestId="user-clear-search"
        />
      }
      dialogs={
        <>
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
        </>
      }
    >
      {(list) => (
        <UsersTable
          {...list}
          groups={groups.bySymbol}
          permissionsOf={permissionsOf}
          onEdit={openForm}
          onQuota={openQuota}
          onManage={onManage}
        />
      )}
    </ListPage>
  );
}
