import Add from '@mui/icons-material/Add';
import TelegramIcon from '@mui/icons-material/Telegram';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPanel, ListToolbar } from '../../components/ListPanel.js';
import { ListLoadError, ListNoRows } from '../../components/ListStates.js';
import { PageHeader } from '../../components/PageHeader.js';
import { PAGE_SIZES } from '../../hooks/listParams.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
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
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const [params, update] = useTelegramListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const menus = useTelegramMenus(params);
  const form = useDialogSubject<TelegramMenuView>();
  const [deleting, setDeleting] = useState<TelegramMenuView | null>(null);

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => form.show(null)}
            data-testid="telegram-create"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('create')}
          </Button>
        }
      />
      <TelegramStatusCard />
      <ListPanel
        query={menus}
        params={params}
        onChange={update}
        sizes={PAGE_SIZES}
        compact={compact}
        paginationTestId="telegram-pagination"
        toolbar={
          <ListToolbar
            search={{
              value: params.keyword,
              onSearch: search,
              placeholder: t('searchPlaceholder'),
              label: t('searchLabel'),
              testId: 'telegram-search',
              sx: { flex: 1, minWidth: 0, maxWidth: { sm: 300 } },
            }}
            refreshLabel={t('refresh')}
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
            title={t('empty.title')}
            description={t('empty.description')}
            noMatchTitle={t('empty.noMatchTitle')}
            noMatchDescription={t('empty.noMatch')}
            clearLabel={t('empty.clearFilters')}
            onClear={() => update({ keyword: '' })}
            clearTestId="telegram-clear-search"
            create={{ label: t('create'), onClick: () => form.show(null) }}
          />
        }
      >
        <TelegramMenusTable
          menus={menus.data?.data ?? []}
          loading={menus.isLoading}
          order={params.order}
          onSort={(order) => update({ order })}
          compact={compact}
          onEdit={(menu) => form.show(menu)}
          onDelete={setDeleting}
        />
      </ListPanel>

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
    </Box>
  );
}
