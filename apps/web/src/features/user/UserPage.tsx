import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import type { ManageAction, UserView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
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
  const { user: caller } = useSession();
  const format = useQuotaFormatter();
  const listParams = useUserListParams();
  const users = useUsers(listParams[0]);
  const { params, update, form, ...list } = useListPage({
    id: 'user',
    words,
    list: listParams,
    query: users,
    searchKey: 'keyword',
  });
  const groups = useGroupDirectory();
  const manage = useManageUser();
  const quota = useDialogSubject<UserView>();
  const [pending, setPending] = useState<PendingAction | null>(null);

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
      {...list.page}
      create={{ ...list.page.create, icon: <PersonAddAlt1Outlined /> }}
      toolbar={
        <ListToolbar
          {...list.toolbar}
          search={{ ...list.toolbar.search, fullWidth: true, sx: { maxWidth: { sm: 380 } } }}
        />
      }
      error={<ListLoadError {...list.loadError} />}
      empty={
        <ListNoRows
          {...list.noRows}
          create={undefined}
          icon={PeopleAltOutlined}
          filtered={Boolean(params.keyword)}
          noMatchDescription={t('empty.noMatch', { keyword: params.keyword })}
          clearLabel={t('empty.clearSearch')}
          onClear={() => update({ keyword: '' })}
          clearTestId="user-clear-search"
        />
      }
      dialogs={
        <>
          <UserFormDialog
            {...list.formDialog}
            user={form.subject}
            groups={groups.list}
            onSaved={(user, created) =>
              list.saved(created ? t('notify.created', { name: user.username }) : t('notify.saved'))
            }
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
          onEdit={(user) => form.show(user)}
          onQuota={openQuota}
          onManage={onManage}
        />
      )}
    </ListPage>
  );
}
