import TelegramIcon from '@mui/icons-material/Telegram';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
import { useWords } from '../../i18n/useWords.js';
import { DeleteTelegramMenuDialog } from './DeleteTelegramMenuDialog.js';
import { TelegramMenuFormDialog } from './TelegramMenuFormDialog.js';
import { TelegramMenusTable } from './TelegramMenusTable.js';
import { TelegramStatusCard } from './TelegramStatusCard.js';
import { useTelegramMenus } from './telegram.api.js';
import { useTelegramListParams } from './useTelegramListParams.js';

/** The Telegram screen (admin): the bot's state and its custom commands, which are data even while it is off. */
export function TelegramPage() {
  const { t } = useTranslation('telegram');
  const words = useWords('telegram', 'list');
  const listParams = useTelegramListParams();
  const menus = useTelegramMenus(listParams[0]);
  const { params, update, form, ...list } = useListPage({
    id: 'telegram',
    words,
    list: listParams,
    query: menus,
    searchKey: 'keyword',
  });
  const [deleting, setDeleting] = useState<TelegramMenuView | null>(null);

  return (
    <ListPage
      {...list.page}
      above={<TelegramStatusCard />}
      toolbar={
        <ListToolbar
          {...list.toolbar}
          search={{ ...list.toolbar.search, sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } } }}
        />
      }
      error={<ListLoadError {...list.loadError} />}
      empty={
        <ListNoRows
          {...list.noRows}
          icon={TelegramIcon}
          filtered={Boolean(params.keyword)}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '' })}
          clearTestId="telegram-clear-search"
        />
      }
      dialogs={
        <>
          <TelegramMenuFormDialog
            {...list.formDialog}
            menu={form.subject}
            onSaved={(menu, created) =>
              list.saved(created ? t('notify.created', { command: menu.command }) : t('notify.saved'))
            }
          />
          <DeleteTelegramMenuDialog menu={deleting} onClose={() => setDeleting(null)} />
        </>
      }
    >
      {(list) => <TelegramMenusTable {...list} onEdit={(menu) => form.show(menu)} onDelete={setDeleting} />}
    </ListPage>
  );
}
