import { isAdminRole, type ManageAction, type UserView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { notify } from '../../lib/notify.js';
import { useManageUser } from './user.api.js';

/** The actions that ask first: they lock someone out, remove them, or change what they may do. */
export type ConfirmedAction = Extract<ManageAction, 'disable' | 'delete' | 'promote' | 'demote' | 'set_reliable'>;

export interface PendingAction {
  user: UserView;
  action: ConfirmedAction;
}

const dangerous: Record<ConfirmedAction, boolean> = {
  disable: true,
  delete: true,
  promote: false,
  demote: false,
  set_reliable: false,
};

/** The texts of an action: `demote` of a reliable user takes away reliable status, not admin rights. */
export function actionTextKey(action: ManageAction, role: number): string {
  return action === 'demote' && !isAdminRole(role) ? 'revokeReliable' : action;
}

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
          notify.success(t(`notify.${actionTextKey(action, user.role)}`, { name: user.username }));
          onClose();
        },
      },
    );
  };
  const action = pending?.action ?? 'disable';
  const name = pending?.user.username ?? '';
  const texts = actionTextKey(action, pending?.user.role ?? 0);
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t(`confirm.${texts}.title`, { name })}
      message={t(`confirm.${texts}.message`, { name })}
      confirmLabel={t(`confirm.${texts}.button`)}
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
