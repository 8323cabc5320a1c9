import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PauseCircleOutline from '@mui/icons-material/PauseCircleOutlineOutlined';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ChannelStatus, type ChannelView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionsCell } from '../../components/ListTable.js';
import { menuItems } from '../../components/menuItems.js';
import { useMenuAnchor } from '../../hooks/useMenuAnchor.js';
import { describeError, notify } from '../../lib/notify.js';
import { GroupChips, toneChip } from './ChannelCells.js';
import { ChannelCard, ChannelRow, TypeName } from './ChannelRow.js';
import { useChannelTable } from './ChannelTableContext.js';
import { useTagAction, useTagChannels } from './channel.api.js';
import { InlineNumber } from './InlineNumber.js';

export const CHANNEL_COLUMN_COUNT = 12;

/** "3 / 4 enabled" once the tag's channels are loaded. */
function EnabledCount({ channels, tag }: { channels: ChannelView[] | undefined; tag: string }) {
  const { t } = useTranslation('channel');
  if (!channels) return null;
  const enabled = channels.filter((channel) => channel.status === ChannelStatus.enabled).length;
  const tone = enabled === channels.length ? 'success' : enabled === 0 ? 'secondary' : 'warning';
  return (
    <Chip
      size="small"
      label={t('tag.enabledCount', { enabled, total: channels.length })}
      data-testid={`channel-tag-enabled-${tag}`}
      sx={(theme) => toneChip(theme, tone)}
    />
  );
}

/** Edit, enable or disable all, delete the disabled ones, delete the tag. */
function TagActions({ tag }: { tag: string }) {
  const { t } = useTranslation('channel');
  const { onEditTag, onTagAction } = useChannelTable();
  const { show, close, menu } = useMenuAnchor();
  const action = useTagAction();
  const setStatus = (kind: 'enable' | 'disable') => {
    action.mutate(
      { tag, action: { kind } },
      { onSuccess: (count) => notify.success(t(`notify.tag.${kind}`, { tag, count: Number(count) })) },
    );
  };
  return (
    <Stack direction="row" spacing={0.25} sx={{ justifyContent: 'flex-end' }}>
      <Tooltip title={t('tag.edit')}>
        <IconButton
          size="small"
          aria-label={t('tag.edit')}
          onClick={() => onEditTag(tag)}
          data-testid={`channel-tag-edit-${tag}`}
        >
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('actions.more')}>
        <IconButton
          size="small"
          aria-label={t('actions.more')}
          onClick={show}
          disabled={action.isPending}
          data-testid={`channel-tag-more-${tag}`}
        >
          <MoreVert fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu {...menu}>
        {menuItems(
          [
            {
              testId: `channel-tag-enable-${tag}`,
              icon: <PlayCircleOutline fontSize="small" />,
              label: t('tag.enableAll'),
              onClick: () => setStatus('enable'),
            },
            {
              testId: `channel-tag-disable-${tag}`,
              icon: <PauseCircleOutline fontSize="small" />,
              label: t('tag.disableAll'),
              onClick: () => setStatus('disable'),
            },
            {
              testId: `channel-tag-delete-disabled-${tag}`,
              icon: <DeleteSweepOutlined fontSize="small" />,
              label: t('tag.deleteDisabled'),
              onClick: () => onTagAction(tag, 'deleteDisabled'),
              danger: true,
            },
            {
              testId: `channel-tag-delete-${tag}`,
              icon: <DeleteOutlined fontSize="small" />,
              label: t('tag.delete'),
              onClick: () => onTagAction(tag, 'delete'),
              danger: true,
            },
          ],
          close,
          true,
        )}
      </Menu>
    </Stack>
  );
}

/** The priority of every channel of the tag, set in place. */
function TagPriority({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const action = useTagAction();
  return (
    <InlineNumber
      value={channel.priority}
      min={0}
      onCommit={(value) =>
        action.mutate(
          { tag: channel.tag, action: { kind: 'priority', value } },
          { onSuccess: () => notify.success(t('notify.tag.priority', { tag: channel.tag, value })) },
        )
      }
      invalidText={t('form.errors.priority')}
      label={t('tag.priority', { tag: channel.tag })}
      disabled={action.isPending}
      testId={`channel-tag-priority-${channel.tag}`}
    />
  );
}

function TagTitle({ tag, count }: { tag: string; count: number | undefined }) {
  const { t } = useTranslation('channel');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <LocalOfferOutlined fontSize="small" sx={{ color: 'primary.main' }} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 700 }} data-testid={`channel-tag-name-${tag}`}>
          {tag}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {count === undefined ? t('tag.caption') : t('tag.count', { count: count })}
        </Typography>
      </Box>
    </Stack>
  );
}

/** Whether a tag shows its channels, and those channels (loaded once it is expanded). */
function useTagExpansion(tag: string) {
  const [open, setOpen] = useState(false);
  const channels = useTagChannels(tag, open);
  return { open, toggle: () => setOpen((current) => !current), channels };
}

/** The arrow that expands a tag into its channels and folds it again. */
function ExpandButton({ tag, open, onToggle }: { tag: string; open: boolean; onToggle(): void }) {
  const { t } = useTranslation('channel');
  return (
    <IconButton
      size="small"
      aria-label={open ? t('tag.collapse') : t('tag.expand')}
      aria-expanded={open}
      onClick={onToggle}
      data-testid={`channel-tag-expand-${tag}`}
    >
      {open ? <KeyboardArrowDown fontSize="small" /> : <KeyboardArrowRight fontSize="small" />}
    </IconButton>
  );
}

/** A tag folded into one row (its representative channel); expanding lists its channels. */
export function TagRow({ channel }: { channel: ChannelView }) {
  const tag = channel.tag;
  const { open, toggle, channels } = useTagExpansion(tag);
  return (
    <>
      <TableRow
        data-testid={`channel-tag-row-${tag}`}
        sx={{ '& > td': { borderBottomStyle: open ? 'dashed' : 'solid' } }}
      >
        <TableCell padding="checkbox">
          <ExpandButton tag={tag} open={open} onToggle={toggle} />
        </TableCell>
        <TableCell colSpan={2} sx={{ maxWidth: 280 }}>
          <TagTitle tag={tag} count={channels.data?.length} />
        </TableCell>
        <TableCell sx={{ maxWidth: 160 }}>
          <TypeName type={channel.type} />
        </TableCell>
        <TableCell>
          <GroupChips groups={channel.group} />
        </TableCell>
        <TableCell />
        <TableCell>
          <EnabledCount channels={channels.data} tag={tag} />
        </TableCell>
        <TableCell colSpan={3} />
        <TableCell align="right">
          <TagPriority channel={channel} />
        </TableCell>
        <ActionsCell>
          <TagActions tag={tag} />
        </ActionsCell>
      </TableRow>
      {open && channels.isLoading && (
        <TableRow>
          <TableCell colSpan={CHANNEL_COLUMN_COUNT}>
            <Skeleton variant="text" height={32} />
          </TableCell>
        </TableRow>
      )}
      {open && channels.isError && (
        <TableRow>
          <TableCell colSpan={CHANNEL_COLUMN_COUNT}>
            <Alert severity="error">{describeError(channels.error)}</Alert>
          </TableCell>
        </TableRow>
      )}
      {open && channels.data?.map((child) => <ChannelRow key={child.id} channel={child} nested />)}
    </>
  );
}

/** A tag as a card (narrow screens), with its channels' cards inside when expanded. */
export function TagCard({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const tag = channel.tag;
  const { open, toggle, channels } = useTagExpansion(tag);
  return (
    <Card
      variant="outlined"
      sx={{ boxShadow: 'none', borderLeft: 3, borderLeftColor: 'primary.main' }}
      data-testid={`channel-tag-row-${tag}`}
    >
      <Stack direction="row" spacing={1} sx={{ p: 1.5, alignItems: 'center' }}>
        <ExpandButton tag={tag} open={open} onToggle={toggle} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <TagTitle tag={tag} count={channels.data?.length} />
        </Box>
        <EnabledCount channels={channels.data} tag={tag} />
      </Stack>
      <Divider />
      <Stack direction="row" sx={{ px: 1.5, py: 0.5, alignItems: 'center', justifyContent: 'space-between' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('columns.priority')}
          </Typography>
          <TagPriority channel={channel} />
        </Stack>
        <TagActions tag={tag} />
      </Stack>
      {open && (
        <Stack spacing={1} sx={{ p: 1, bgcolor: 'action.hover' }}>
          {channels.isLoading && <Skeleton variant="rounded" height={120} />}
          {channels.isError && <Alert severity="error">{describeError(channels.error)}</Alert>}
          {channels.data?.map((child) => (
            <ChannelCard key={child.id} channel={child} />
          ))}
        </Stack>
      )}
    </Card>
  );
}
