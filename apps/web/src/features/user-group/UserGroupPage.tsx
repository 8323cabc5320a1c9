import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { UserGroupView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
import { useWords } from '../../i18n/useWords.js';
import { DeleteUserGroupDialog } from './DeleteUserGroupDialog.js';
import { UserGroupFormDialog } from './UserGroupFormDialog.js';
import { UserGroupsTable } from './UserGroupsTable.js';
import { type UserGroupListParams, useUserGroups } from './userGroup.api.js';
import { useUserGroupListParams } from './useUserGroupListParams.js';

export function UserGroupPage() {
  const { t } = useTranslation('userGroup');
  const words = useWords('userGroup', 'list');
  const listParams = useUserGroupListParams();
  const groups = useUserGroups(listParams[0]);
  const { params, update, form, ...list } = useListPage({
    id: 'user-group',
    words,
    list: listParams,
    query: groups,
    searchKey: 'name',
  });
  const [deleting, setDeleting] = useState<UserGroupView | null>(null);

  return (
    <ListPage
      {...list.page}
      toolbar={
        <ListToolbar
          {...list.toolbar}
          search={{ ...list.toolbar.search, sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } } }}
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
      error={<ListLoadError {...list.loadError} />}
      empty={
        <ListNoRows
          {...list.noRows}
          icon={GroupsOutlined}
          filtered={Boolean(params.name || params.enable)}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ name: '', enable: '' })}
          clearTestId="user-group-clear-filters"
        />
      }
      dialogs={
        <>
          <UserGroupFormDialog
            {...list.formDialog}
            group={form.subject}
            onSaved={(group, created) =>
              list.saved(created ? t('notify.created', { name: group.name }) : t('notify.saved'))
            }
          />
          <DeleteUserGroupDialog group={deleting} onClose={() => setDeleting(null)} />
        </>
      }
    >
      {(list) => <UserGroupsTable {...list} onEdit={(group) => form.show(group)} onDelete={setDeleting} />}
    </ListPage>
  );
}
