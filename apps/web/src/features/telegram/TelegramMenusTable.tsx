import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import type { ListRows } from '../../components/ListPage.js';
import { ActionsCell, ColumnHeads, IdCell, type ListColumn, ListTable } from '../../components/ListTable.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { RowIconButton } from '../../components/RowIconButton.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { parseModeKey } from './telegramForm.js';
import type { TelegramSortField } from './useTelegramListParams.js';

const monospace = monospaceFontStack;

export interface TelegramRowHandlers {
  onEdit(menu: TelegramMenuView): void;
  onDelete(menu: TelegramMenuView): void;
}

type TelegramMenusTableProps = ListRows<TelegramMenuView> & TelegramRowHandlers;

function CommandText({ menu }: { menu: TelegramMenuView }) {
  return (
    <Typography
      variant="body2"
      noWrap
      sx={{ fontFamily: monospace, fontWeight: 600 }}
      data-testid={`telegram-command-${menu.id}`}
    >
      /{menu.command}
    </Typography>
  );
}

function ParseModeChip({ menu }: { menu: TelegramMenuView }) {
  const { t } = useTranslation('telegram');
  return <Chip size="small" variant="outlined" label={t(parseModeKey(menu.parse_mode))} sx={{ height: 22 }} />;
}

/** The reply on one line: enough to recognise it; the dialog shows it whole. */
function ReplyPreview({ menu, lines = 1 }: { menu: TelegramMenuView; lines?: number }) {
  return (
    <Typography
      variant="body2"
      title={menu.reply_message}
      sx={{
        color: 'text.secondary',
        whiteSpace: 'normal',
        overflow: 'hidden',
        display: '-webkit-box',
        WebkitLineClamp: lines,
        WebkitBoxOrient: 'vertical',
        overflowWrap: 'anywhere',
      }}
      data-testid={`telegram-reply-${menu.id}`}
    >
      {menu.reply_message}
    </Typography>
  );
}

function MenuActions({ menu, onEdit, onDelete }: { menu: TelegramMenuView } & TelegramRowHandlers) {
  const { t } = useTranslation('telegram');
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <RowIconButton
        label={t('actions.editNamed', { command: menu.command })}
        tooltip={t('actions.edit')}
        onClick={() => onEdit(menu)}
        testId={`telegram-edit-${menu.id}`}
      >
        <EditOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.deleteNamed', { command: menu.command })}
        tooltip={t('actions.delete')}
        onClick={() => onDelete(menu)}
        danger
        testId={`telegram-delete-${menu.id}`}
      >
        <DeleteOutlined fontSize="small" />
      </RowIconButton>
    </Stack>
  );
}

function MenuCard({ menu, ...handlers }: { menu: TelegramMenuView } & TelegramRowHandlers) {
  const { t } = useTranslation('telegram');
  const facts: CardFact[] = [
    [t('columns.description'), menu.description],
    [t('columns.parseMode'), <ParseModeChip key="mode" menu={menu} />],
  ];
  return (
    <RowCard
      testId={`telegram-row-${menu.id}`}
      facts={facts}
      footerJustify="flex-end"
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <CommandText menu={menu} />
          </Box>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            #{menu.id}
          </Typography>
        </>
      }
      footer={<MenuActions menu={menu} {...handlers} />}
    >
      <Box sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          {t('columns.reply')}
        </Typography>
        <ReplyPreview menu={menu} lines={2} />
      </Box>
    </RowCard>
  );
}

/** The custom commands: a table on wide screens, cards on narrow ones. */
export function TelegramMenusTable({
  rows: menus,
  loading,
  order,
  onSort,
  compact,
  ...handlers
}: TelegramMenusTableProps) {
  const { t } = useTranslation('telegram');
  const columns: ListColumn<TelegramSortField>[] = [
    { label: t('columns.id'), field: 'id' },
    { label: t('columns.command'), field: 'command' },
    { label: t('columns.description') },
    { label: t('columns.parseMode') },
    { label: t('columns.reply') },
  ];
  return (
    <ListTable
      testId="telegram-list"
      loading={loading && menus.length === 0}
      compact={compact}
      cards={menus.map((menu) => <MenuCard key={menu.id} menu={menu} {...handlers} />)}
      cardHeight={190}
      minWidth={760}
      columns={columns.length + 1}
      actionsLabel={t('columns.actions')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="telegram-sort" />}
    >
      {menus.map((menu) => (
        <TableRow key={menu.id} hover data-testid={`telegram-row-${menu.id}`}>
          <IdCell id={menu.id} />
          <TableCell sx={{ maxWidth: 200 }}>
            <CommandText menu={menu} />
          </TableCell>
          <TableCell sx={{ maxWidth: 220 }}>
            <Typography variant="body2" noWrap title={menu.description}>
              {menu.description}
            </Typography>
          </TableCell>
          <TableCell>
            <ParseModeChip menu={menu} />
          </TableCell>
          <TableCell sx={{ maxWidth: 320 }}>
            <ReplyPreview menu={menu} />
          </TableCell>
          <ActionsCell>
            <MenuActions menu={menu} {...handlers} />
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
