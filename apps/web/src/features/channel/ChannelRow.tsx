import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ChannelView, splitChannelList } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionsCell, IdCell } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { notify } from '../../lib/notify.js';
import { Balance, ChannelStatusChip, GroupChips, monospace, ResponseTime, TagChip } from './ChannelCells.js';
import { HealthCell } from './ChannelHealthCell.js';
import { ChannelRowActions, ChannelStatusSwitch } from './ChannelRowActions.js';
import { useChannelTable } from './ChannelTableContext.js';
import { usePatchChannel } from './channel.api.js';
import { InlineNumber } from './InlineNumber.js';

export function TypeName({ type }: { type: number }) {
  const { t } = useTranslation('channel');
  const { providers } = useChannelTable();
  const provider = providers.get(type);
  return (
    <Typography variant="body2" noWrap sx={{ color: provider ? 'text.primary' : 'warning.main' }}>
      {provider?.name ?? t('unknownType', { type })}
      {provider && !provider.supported && (
        <Tooltip title={provider.retired ?? ''}>
          <Box
            component="span"
            sx={{ ml: 0.75, color: 'warning.main', fontSize: '0.75rem' }}
            data-testid={`channel-type-unsupported-${type}`}
          >
            {t('unsupportedType')}
          </Box>
        </Tooltip>
      )}
    </Typography>
  );
}

function NameCell({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const models = splitChannelList(channel.models);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} data-testid={`channel-name-${channel.id}`}>
        {channel.name}
      </Typography>
      <Tooltip title={models.join(', ')} placement="bottom-start">
        <Typography
          variant="caption"
          noWrap
          component="div"
          sx={{ color: 'text.secondary', fontFamily: monospace, fontSize: '0.7rem' }}
        >
          {t('modelCount', { count: models.length, first: models[0] ?? '' })}
        </Typography>
      </Tooltip>
    </Box>
  );
}

/** Priority and weight edited in place (priority ≥ 0, weight ≥ 1). */
function PriorityWeight({ channel, field }: { channel: ChannelView; field: 'priority' | 'weight' }) {
  const { t } = useTranslation('channel');
  const patch = usePatchChannel();
  return (
    <InlineNumber
      value={field === 'priority' ? channel.priority : channel.weight}
      min={field === 'priority' ? 0 : 1}
      onCommit={(value) =>
        patch.mutate(
          { id: channel.id, [field]: value },
          { onSuccess: () => notify.success(t(`notify.${field}Saved`, { name: channel.name, value })) },
        )
      }
      invalidText={t(`form.errors.${field}`)}
      label={t(`columns.${field}`)}
      disabled={patch.isPending}
      testId={`channel-${field}-${channel.id}`}
    />
  );
}

/** Data attributes are valid on every slot but absent from MUI's slot prop types. */
export const inputAttributes = (label: string, testId: string) => ({ 'aria-label': label, 'data-testid': testId });

function SelectBox({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const { selected, toggleSelected } = useChannelTable();
  return (
    <Checkbox
      size="small"
      checked={selected.has(channel.id)}
      onChange={() => toggleSelected(channel.id)}
      slotProps={{ input: inputAttributes(t('select', { name: channel.name }), `channel-select-${channel.id}`) }}
    />
  );
}

/** One channel as a table row; `nested` rows belong to an expanded tag. */
export function ChannelRow({ channel, nested = false }: { channel: ChannelView; nested?: boolean }) {
  const { testResults, selected } = useChannelTable();
  return (
    <TableRow
      hover
      selected={selected.has(channel.id)}
      data-testid={`channel-row-${channel.id}`}
      sx={nested ? { bgcolor: 'action.hover', '& > td:nth-of-type(2)': { pl: 3 } } : undefined}
    >
      <TableCell padding="checkbox">
        <SelectBox channel={channel} />
      </TableCell>
      <IdCell id={channel.id} />
      <TableCell sx={{ maxWidth: 180 }}>
        <NameCell channel={channel} />
      </TableCell>
      <TableCell sx={{ maxWidth: 140 }}>
        <TypeName type={channel.type} />
      </TableCell>
      <TableCell>
        <GroupChips groups={channel.group} testId={`channel-groups-${channel.id}`} />
      </TableCell>
      <TableCell>
        <TagChip tag={channel.tag} testId={`channel-tag-${channel.id}`} />
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <ChannelStatusSwitch channel={channel} />
          <ChannelStatusChip status={channel.status} testId={`channel-status-${channel.id}`} />
        </Stack>
      </TableCell>
      <TableCell>
        <HealthCell channel={channel} />
      </TableCell>
      <TableCell>
        <ResponseTime channel={channel} result={testResults[channel.id]} />
      </TableCell>
      <TableCell align="right">
        <Stack spacing={0.25} sx={{ alignItems: 'flex-end' }}>
          <Quota value={channel.used_quota} testId={`channel-used-${channel.id}`} />
          <Typography variant="caption" component="div">
            <Balance channel={channel} />
          </Typography>
        </Stack>
      </TableCell>
      <TableCell align="right">
        <Stack spacing={0.5} sx={{ alignItems: 'flex-end' }}>
          <PriorityWeight channel={channel} field="priority" />
          <PriorityWeight channel={channel} field="weight" />
        </Stack>
      </TableCell>
      <ActionsCell>
        <ChannelRowActions channel={channel} />
      </ActionsCell>
    </TableRow>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mb: 0.25 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}

/** One channel as a card (narrow screens). */
export function ChannelCard({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const { testResults, selected } = useChannelTable();
  return (
    <Card
      variant="outlined"
      sx={{ boxShadow: 'none', borderColor: selected.has(channel.id) ? 'primary.main' : 'divider' }}
      data-testid={`channel-row-${channel.id}`}
    >
      <Stack direction="row" spacing={1} sx={{ p: 1.5, pb: 1, alignItems: 'flex-start' }}>
        <Box sx={{ ml: -0.75, mt: -0.5 }}>
          <SelectBox channel={channel} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <NameCell channel={channel} />
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', mt: 0.5, color: 'text.secondary' }}>
            <Typography variant="caption">#{channel.id}</Typography>
            <TypeName type={channel.type} />
          </Stack>
        </Box>
        <ChannelStatusChip status={channel.status} testId={`channel-status-${channel.id}`} />
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.25, px: 1.5, pb: 1.5 }}>
        <Fact label={t('columns.groups')}>
          <GroupChips groups={channel.group} testId={`channel-groups-${channel.id}`} />
        </Fact>
        <Fact label={t('columns.tag')}>
          <TagChip tag={channel.tag} testId={`channel-tag-${channel.id}`} />
        </Fact>
        <Fact label={t('columns.health')}>
          <HealthCell channel={channel} />
        </Fact>
        <Fact label={t('columns.response')}>
          <ResponseTime channel={channel} result={testResults[channel.id]} />
        </Fact>
        <Fact label={t('columns.usedBalance')}>
          <Quota value={channel.used_quota} testId={`channel-used-${channel.id}`} />
          {' · '}
          <Balance channel={channel} />
        </Fact>
        <Fact label={t('columns.priority')}>
          <PriorityWeight channel={channel} field="priority" />
        </Fact>
        <Fact label={t('columns.weight')}>
          <PriorityWeight channel={channel} field="weight" />
        </Fact>
      </Box>
      <Divider />
      <Stack direction="row" sx={{ px: 1, py: 0.5, alignItems: 'center', justifyContent: 'space-between' }}>
        <ChannelStatusSwitch channel={channel} />
        <ChannelRowActions channel={channel} />
      </Stack>
    </Card>
  );
}
