import Alert from '@mui/material/Alert';
import type { UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { describeError, notify } from '../../lib/notify.js';
import { useDeleteUserGroup } from './userGroup.api.js';

/** Asks before deleting a group; the server refuses while users still belong to it. */
export function DeleteUserGroupDialog({ group, onClose }: { group: UserGroupView | null; onClose(): void }) {
  const { t } = useTranslation('userGroup');
  const remove = useDeleteUserGroup();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!group) return;
    remove.mutate(group.id, {
      onSuccess: () => {
        notify.success(t('notify.deleted', { name: group.name }));
        close();
      },
    });
  };
  return (
    <ConfirmDialog
      open={group !== null}
      title={t('delete.title')}
      message={t('delete.message', { name: group?.name ?? '', symbol: group?.symbol ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      busy={remove.isPending}
      onConfirm={confirm}
      onClose={close}
      testId="user-group-delete-dialog"
      confirmTestId="user-group-delete-confirm"
      cancelTestId="user-group-delete-cancel"
    >
      {remove.isError && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="user-group-delete-error">
          {describeError(remove.error)}
        </Alert>
      )}
    </ConfirmDialog>
  );
}
