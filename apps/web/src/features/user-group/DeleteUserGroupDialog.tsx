import type { UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { useDeleteUserGroup } from './userGroup.api.js';

/** Asks before deleting a group; the server refuses while users still belong to it. */
export function DeleteUserGroupDialog({ group, onClose }: { group: UserGroupView | null; onClose(): void }) {
  const { t } = useTranslation('userGroup');
  const remove = useDeleteUserGroup();
  return (
    <DeleteDialog
      row={group}
      onClose={onClose}
      remove={remove}
      title={t('delete.title')}
      message={t('delete.message', { name: group?.name ?? '', symbol: group?.symbol ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      deletedText={(deleted) => t('notify.deleted', { name: deleted.name })}
      testIdPrefix="user-group"
      showsRefusal
    />
  );
}
