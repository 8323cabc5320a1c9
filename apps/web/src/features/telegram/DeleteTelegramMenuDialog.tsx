import type { TelegramMenuView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { useDeleteTelegramMenu } from './telegram.api.js';

/** Asks before deleting a command; the bot's menu keeps it until the commands are reloaded. */
export function DeleteTelegramMenuDialog({ menu, onClose }: { menu: TelegramMenuView | null; onClose(): void }) {
  const { t } = useTranslation('telegram');
  const remove = useDeleteTelegramMenu();
  return (
    <DeleteDialog
      row={menu}
      onClose={onClose}
      remove={remove}
      title={t('delete.title')}
      message={t('delete.message', { command: menu?.command ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('delete.cancel')}
      deletedText={(deleted) => t('notify.deleted', { command: deleted.command })}
      testIdPrefix="telegram"
      showsRefusal
    />
  );
}
