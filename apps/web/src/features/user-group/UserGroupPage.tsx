import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { UserGroupView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { DeleteUserGroupDialog } from './DeleteUserGroupDialog.js';
import { UserGroupFormDialog } from './UserGroupFormDialog.js';
import { UserGroupsTable } from './UserGroupsTable.js';
import { type UserGroupListParams, useUserGroups } from './userGroup.api.js';
import { useUserGroupListParams } from './useUserGroupListParams.js';

export function UserGroupPage() {
  const { t } = useTranslation('userGroup');
  const words = useWords('userGroup', 'list');
  const compact = useCompact('md');
  const [params, update] = useUserGroupListParams();
  const search = useCallback((name: string) => update({ name }), [update]);
  const groups = useUserGroups(params);
  const form = useDialogSubject<UserGroupView>();
  const [deleting, setDeleting] = useState<UserGroupView | null>(null);

  const openForm = (group: UserGroupView | null) => {
    form.show(group);
  };

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => openForm(null), testId: 'user-group-create' }}
      query={groups}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="user-group-pagination"
      toolbar={
        <ListToolbar
          search={{
            value: params.name,
            onSearch: search,
            ...words.search,
            testId: 'user-group-search',
            sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } },
          }}
          refreshLabel={words.refresh}
          onRefresh={() => void groups.refetch()}
          refreshTestId="user-group-refresh"
        >
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
          {/* On wider screens the search box shares the spare room with this gap, as wide as it may grow. */}
          <Box sx={{ flex: 1, display: { xs: 'none', sm: 'block' } }} />
        </ListToolbar>
      }
      error={
        <ListLoadError error={groups.error} onRetry={() => void groups.refetch()} testId="user-group-load-error" />
      }
      empty={
        <ListNoRows
          icon={GroupsOutlined}
          testId="user-group-empty"
          filtered={Boolean(params.name || params.enable)}
          {...words.empty}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ name: '', enable: '' })}
          clearTestId="user-group-clear-filters"
          create={{ label: words.create, onClick: () => openForm(null) }}
        />
      }
      dialogs={
        <>
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
        </>
      }
    >
      {(list) => <UserGroupsTable {...list} onEdit={openForm} onDelete={setDeleting} />}
    </ListPage>
  );
}
