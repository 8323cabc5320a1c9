import Checkbox from '@mui/material/Checkbox';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { ChannelView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SkeletonRows } from '../../components/ListSkeletons.js';
import { ActionsCell } from '../../components/ListTable.js';
import { nextOrder, SortableHead as SharedSortableHead } from '../../components/SortableHead.js';
import { ChannelCard, ChannelRow, inputAttributes } from './ChannelRow.js';
import { CHANNEL_COLUMN_COUNT, TagCard, TagRow } from './TagRow.js';
import type { ChannelSortField } from './useChannelListParams.js';

interface ChannelsTableProps {
  channels: ChannelView[];
  loading: boolean;
  /** One row per tag: rows with a tag stand for the whole tag. */
  tagView: boolean;
  order: string;
  onSort(order: string): void;
  compact: boolean;
  /** Selection of the page's own channel rows (not the tags'). */
  allSelected: boolean;
  someSelected: boolean;
  onSelectAll(checked: boolean): void;
}

interface SortProps {
  order: string;
  onSort(order: string): void;
}

/** One of the two sort labels stacked in the priority / weight column. */
function StackedSortLabel({
  field,
  order,
  onSort,
  children,
}: SortProps & { field: ChannelSortField; children: ReactNode }) {
  const active = order.replace(/^-/, '') === field;
  return (
    <TableSortLabel
      active={active}
      direction={active && !order.startsWith('-') ? 'asc' : 'desc'}
      onClick={() => onSort(nextOrder(order, field))}
      data-testid={`channel-sort-${field}`}
      // The label takes its direction from its parent: in a column stack, keep it a right-aligned row.
      sx={{ flexDirection: 'row-reverse' }}
    >
      {children}
    </TableSortLabel>
  );
}

function SortableHead(props: SortProps & { field: ChannelSortField; children: ReactNode; align?: 'right' }) {
  return <SharedSortableHead {...props} testId={`channel-sort-${props.field}`} />;
}

const PLACEHOLDERS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** The channel list: a dense table on wide screens, cards on narrow ones. */
export function ChannelsTable({
  channels,
  loading,
  tagView,
  order,
  onSort,
  compact,
  allSelected,
  someSelected,
  onSelectAll,
}: ChannelsTableProps) {
  const { t } = useTranslation('channel');
  const isTagRow = (channel: ChannelView) => tagView && channel.tag !== '';
  // One row per tag, whatever the page holds.
  const seenTags = new Set<string>();
  const shown = channels.filter((channel) => {
    if (!isTagRow(channel)) return true;
    if (seenTags.has(channel.tag)) return false;
    seenTags.add(channel.tag);
    return true;
  });

  if (compact) {
    return (
      <Stack spacing={1.25} sx={{ p: 1.5 }} data-testid="channel-list">
        {loading && channels.length === 0
          ? PLACEHOLDERS.slice(0, 3).map((key) => <Skeleton key={key} variant="rounded" height={200} />)
          : shown.map((channel) =>
              isTagRow(channel) ? (
                <TagCard key={`tag-${channel.tag}`} channel={channel} />
              ) : (
                <ChannelCard key={channel.id} channel={channel} />
              ),
            )}
      </Stack>
    );
  }

  const sortProps = { order, onSort };
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{
          minWidth: 1040,
          '& td, & th': { px: 1 },
          '& td': { py: 0.75, whiteSpace: 'nowrap' },
          // Headings may wrap ("Used / balance") so the columns are as wide as their values.
          '& th': { fontWeight: 600, color: 'text.secondary', fontSize: '0.8125rem', lineHeight: 1.25 },
        }}
        data-testid="channel-list"
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={allSelected}
                indeterminate={someSelected && !allSelected}
                onChange={(_event, checked) => onSelectAll(checked)}
                slotProps={{ input: inputAttributes(t('selectAll'), 'channel-select-all') }}
              />
            </TableCell>
            <SortableHead field="id" {...sortProps}>
              {t('columns.id')}
            </SortableHead>
            <SortableHead field="name" {...sortProps}>
              {t('columns.name')}
            </SortableHead>
            <SortableHead field="type" {...sortProps}>
              {t('columns.type')}
            </SortableHead>
            <SortableHead field="group" {...sortProps}>
              {t('columns.groups')}
            </SortableHead>
            <TableCell>{t('columns.tag')}</TableCell>
            <SortableHead field="status" {...sortProps}>
              {t('columns.status')}
            </SortableHead>
            <TableCell>{t('columns.health')}</TableCell>
            <SortableHead field="response_time" {...sortProps}>
              {t('columns.response')}
            </SortableHead>
            <SortableHead field="balance" align="right" {...sortProps}>
              {t('columns.usedBalance')}
            </SortableHead>
            <TableCell align="right">
              <Stack sx={{ alignItems: 'flex-end' }}>
                <StackedSortLabel field="priority" {...sortProps}>
                  {t('columns.priority')}
                </StackedSortLabel>
                <StackedSortLabel field="weight" {...sortProps}>
                  {t('columns.weight')}
                </StackedSortLabel>
              </Stack>
            </TableCell>
            <ActionsCell>{t('columns.actions')}</ActionsCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && channels.length === 0 ? (
            <SkeletonRows columns={CHANNEL_COLUMN_COUNT} />
          ) : (
            shown.map((channel) =>
              isTagRow(channel) ? (
                <TagRow key={`tag-${channel.tag}`} channel={channel} />
              ) : (
                <ChannelRow key={channel.id} channel={channel} />
              ),
            )
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
