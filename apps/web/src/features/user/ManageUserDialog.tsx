import type { ManageAction, UserView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { notify } from '../../lib/notify.js';
import { useManageUser } from './user.api.js';

/** The actions that ask first: they lock someone out, remove them, or change what they may do. */
export type ConfirmedAction = Extract<ManageAction, 'disable' | 'delete' | 'promote' | 'demote'>;

export interface PendingAction {
  user: UserView;
  action: ConfirmedAction;
}

const dangerous: Record<ConfirmedAction, boolean> = { disable: true, delete: true, promote: false, demote: false };

/** Asks before disabling, deleting, making an admin or cancelling an admin. */
export function ManageUserDialog({ pending, onClose }: { pending: PendingAction | null; onClose(): void }) {
  const { t } = useTranslation('user');
  const manage = useManageUser();
  const confirm = () => {
    if (!pending) return;
    const { user, action } = pending;
    manage.mutate(
      { username: user.username, action },
      {
        onSuccess: () => {
          notify.success(t(`notify.${action}`, { name: user.username }));
          onClose();
        },
      },
    );
  };
  const action = pending?.action ?? 'disable';
  const name = pending?.user.username ?? '';
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t(`confirm.${action}.title`, { name })}
      message={t(`confirm.${action}.message`, { name })}
      confirmLabel={t(`confirm.${action}.button`)}
      cancelLabel={t('form.cancel')}
      busy={manage.isPending}
      onConfirm={confirm}
      onClose={onClose}
      testId="user-confirm-dialog"
      confirmTestId="user-confirm"
      cancelTestId="user-confirm-cancel"
      destructive={dangerous[action]}
      action={action}
    />
  );
}
