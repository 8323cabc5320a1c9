import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import LabelOffOutlined from '@mui/icons-material/LabelOffOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import Speed from '@mui/icons-material/Speed';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { ChannelStatus, type ChannelView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { menuItems } from '../../components/menuItems.js';
import { RowIconButton } from '../../components/RowIconButton.js';
import { useMenuAnchor } from '../../hooks/useMenuAnchor.js';
import { describeError, notify } from '../../lib/notify.js';
import { ChannelCheckDialog } from './ChannelCheckDialog.js';
import { useChannelTable } from './ChannelTableContext.js';
import { usePatchChannel, useTestChannel, useUpdateBalance } from './channel.api.js';
import { testableModels } from './channelForm.js';

/** The enable switch: off sets "disabled by an administrator"; on enables (also an auto-disabled channel). */
export function ChannelStatusSwitch({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const patch = usePatchChannel();
  const enabled = channel.status === ChannelStatus.enabled;
  return (
    <Tooltip title={enabled ? t('actions.disable') : t('actions.enable')}>
      <Switch
        size="small"
        checked={enabled}
        disabled={patch.isPending}
        onChange={(_event, checked) =>
          patch.mutate(
            { id: channel.id, status: checked ? ChannelStatus.enabled : ChannelStatus.manuallyDisabled },
            { onSuccess: () => notify.success(checked ? t('notify.enabled') : t('notify.disabled')) },
          )
        }
        slotProps={{ input: { 'aria-label': t('actions.toggle', { name: channel.name }) } }}
        data-testid={`channel-toggle-${channel.id}`}
        data-checked={enabled}
      />
    </Tooltip>
  );
}

/** Test with the channel's test model, or pick one of its models from the arrow's menu. */
function TestButton({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const { onTestResult } = useChannelTable();
  const test = useTestChannel();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const models = testableModels(channel);

  const run = (model: string) => {
    setAnchor(null);
    test.mutate(
      { id: channel.id, model },
      {
        onSuccess: (result) => {
          onTestResult(channel.id, result);
          const time = result.time.toFixed(2);
          if (result.success) notify.success(t('test.succeeded', { name: channel.name, time }));
          else notify.error(t('test.failedToast', { name: channel.name, time, message: result.message }));
        },
        onError: (error) => notify.error(describeError(error)),
      },
    );
  };

  const start = (event: React.MouseEvent<HTMLElement>) => {
    // A test needs a model (spec §5): without a test model, ask which one.
    if (channel.test_model) run(channel.test_model);
    else if (models.length > 0) setAnchor(event.currentTarget);
    else notify.warning(t('test.noModel'));
  };

  return (
    <Stack direction="row" sx={{ alignItems: 'center' }}>
      <RowIconButton
        label={t('actions.test')}
        tooltip={channel.test_model ? t('actions.testWith', { model: channel.test_model }) : t('actions.test')}
        onClick={start}
        disabled={test.isPending}
        testId={`channel-test-${channel.id}`}
      >
        {test.isPending ? <CircularProgress size={18} /> : <Speed fontSize="small" />}
      </RowIconButton>
      <Tooltip title={t('actions.testModel')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('actions.testModel')}
            onClick={(event) => setAnchor(event.currentTarget)}
            disabled={test.isPending || models.length === 0}
            data-testid={`channel-test-menu-${channel.id}`}
            sx={{ ml: -0.75, width: 22 }}
          >
            <ArrowDropDown fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { maxHeight: 360, minWidth: 200 } } }}
      >
        <ListSubheader sx={{ lineHeight: '32px' }}>{t('test.chooseModel')}</ListSubheader>
        {models.map((model) => (
          <MenuItem
            key={model}
            dense
            onClick={() => run(model)}
            data-testid={`channel-test-model-${model}`}
            selected={model === channel.test_model}
          >
            {model}
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}

/** Test, edit and a menu with check, copy, balance refresh, tag removal and delete. */
export function ChannelRowActions({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation('channel');
  const { providers, onEdit, onCopy, onDelete, onClearTag } = useChannelTable();
  const { show, close, menu } = useMenuAnchor();
  // null until first opened: a closed dialog per row would still run its hooks on every render.
  const [checking, setChecking] = useState<boolean | null>(null);
  const balance = useUpdateBalance();
  const hasBalance = providers.get(channel.type)?.balance ?? false;

  const refreshBalance = () => {
    balance.mutate(channel.id, {
      onSuccess: (value) => notify.success(t('notify.balance', { name: channel.name, balance: value.toFixed(2) })),
    });
  };
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <TestButton channel={channel} />
      <RowIconButton label={t('actions.edit')} onClick={() => onEdit(channel)} testId={`channel-edit-${channel.id}`}>
        <EditOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton label={t('actions.more')} onClick={show} testId={`channel-more-${channel.id}`}>
        {balance.isPending ? <CircularProgress size={18} /> : <MoreVert fontSize="small" />}
      </RowIconButton>
      <Menu {...menu}>
        {menuItems(
          [
            {
              testId: `channel-check-${channel.id}`,
              icon: <FactCheckOutlined fontSize="small" />,
              label: t('actions.check'),
              onClick: () => setChecking(true),
            },
            {
              testId: `channel-copy-${channel.id}`,
              icon: <ContentCopy fontSize="small" />,
              label: t('actions.copy'),
              onClick: () => onCopy(channel),
            },
            {
              testId: `channel-balance-refresh-${channel.id}`,
              icon: <AccountBalanceWalletOutlined fontSize="small" />,
              label: t('actions.balance'),
              onClick: refreshBalance,
              disabled: !hasBalance,
              tooltip: hasBalance ? '' : t('actions.balanceUnsupported'),
            },
            Boolean(channel.tag) && {
              testId: `channel-untag-${channel.id}`,
              icon: <LabelOffOutlined fontSize="small" />,
              label: t('actions.clearTag'),
              onClick: () => onClearTag(channel),
            },
            {
              testId: `channel-delete-${channel.id}`,
              icon: <DeleteOutlined fontSize="small" />,
              label: t('actions.delete'),
              onClick: () => onDelete(channel),
              danger: true,
            },
          ],
          close,
          true,
        )}
      </Menu>
      {checking !== null && <ChannelCheckDialog channel={channel} open={checking} onClose={() => setChecking(false)} />}
    </Stack>
  );
}
