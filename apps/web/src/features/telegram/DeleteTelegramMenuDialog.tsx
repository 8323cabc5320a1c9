import Alert from '@mui/material/Alert';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { describeError, notify } from '../../lib/notify.js';
import { useDeleteTelegramMenu } from './telegram.api.js';

/** Asks before deleting a command; the bot's menu keeps it until the commands are reloaded. */
export function DeleteTelegramMenuDialog({ menu, onClose }: { menu: TelegramMenuView | null; onClose(): void }) {
  const { t } = useTranslation('telegram');
  const remove = useDeleteTelegramMenu();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!menu) return;
    remove.mutate(menu.id, {
      onSuccess: () => {
        notify.success(t('notify.deleted', { command: menu.command }));
        close();
      },
    });
  };
  return (
    <ConfirmDialog
      open={menu !== null}
      title={t('delete.title')}
      message={t('delete.message', { command: menu?.command ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('delete.cancel')}
      busy={remove.isPending}
      onConfirm={confirm}
      onClose={close}
      testId="telegram-delete-dialog"
      confirmTestId="telegram-delete-confirm"
      cancelTestId="telegram-delete-cancel"
    >
      {remove.isError && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="telegram-delete-error">
          {describeError(remove.error)}
        </Alert>
      )}
    </ConfirmDialog>
  );
}
