import TelegramIcon from '@mui/icons-material/Telegram';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
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
  const compact = useCompact('md');
  const [params, update] = useTelegramListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const menus = useTelegramMenus(params);
  const form = useDialogSubject<TelegramMenuView>();
  const [deleting, setDeleting] = useState<TelegramMenuView | null>(null);

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => form.show(null), testId: 'telegram-create' }}
      above={<TelegramStatusCard />}
      query={menus}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="telegram-pagination"
      toolbar={
        <ListToolbar
          search={{
            value: params.keyword,
            onSearch: search,
            ...words.search,
            testId: 'telegram-search',
            sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } },
          }}
          refreshLabel={words.refresh}
          onRefresh={() => void menus.refetch()}
          refreshTestId="telegram-refresh"
        />
      }
      error={<ListLoadError error={menus.error} onRetry={() => void menus.refetch()} testId="telegram-load-error" />}
      empty={
        <ListNoRows
          icon={TelegramIcon}
          testId="telegram-empty"
          filtered={Boolean(params.keyword)}
          {...words.empty}
          clearLabel={t('empty.clearFilters')}
          onClear={() => update({ keyword: '' })}
          clearTestId="telegram-clear-search"
          create={{ label: words.create, onClick: () => form.show(null) }}
        />
      }
      dialogs={
        <>
          <TelegramMenuFormDialog
            open={form.open}
            session={form.session}
            menu={form.subject}
            onClose={() => form.close()}
            onSaved={(menu, created) => {
              form.close();
              notify.success(created ? t('notify.created', { command: menu.command }) : t('notify.saved'));
            }}
          />
          <DeleteTelegramMenuDialog menu={deleting} onClose={() => setDeleting(null)} />
        </>
      }
    >
      {(list) => <TelegramMenusTable {...list} onEdit={(menu) => form.show(menu)} onDelete={setDeleting} />}
    </ListPage>
  );
}
