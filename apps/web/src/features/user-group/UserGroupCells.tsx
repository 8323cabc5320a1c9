import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DEFAULT_GROUP, type UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { RowIconButton } from '../../components/RowIconButton.js';
import { chipTint } from '../../components/StateChip.js';
import { notify } from '../../lib/notify.js';
import { useToggleUserGroup } from './userGroup.api.js';

export interface UserGroupRowHandlers {
  onEdit(group: UserGroupView): void;
  onDelete(group: UserGroupView): void;
}

export const monospace = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

type Tone = 'primary' | 'secondary' | 'success' | 'info' | 'warning';

export function ToneChip({ label, tone, testId }: { label: string; tone: Tone; testId?: string }) {
  return (
    <Chip
      size="small"
      label={label}
      data-testid={testId}
      sx={(theme) => ({
        height: 22,
        fontWeight: 600,
        fontSize: '0.75rem',
        ...chipTint(theme, tone),
      })}
    />
  );
}

export function SymbolCell({ group }: { group: UserGroupView }) {
  const { t } = useTranslation('userGroup');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography
        variant="body2"
        noWrap
        sx={{ fontFamily: monospace, fontWeight: 600 }}
        data-testid={`user-group-symbol-${group.id}`}
      >
        {group.symbol}
      </Typography>
      {group.symbol === DEFAULT_GROUP && <ToneChip label={t('defaultChip')} tone="primary" />}
    </Stack>
  );
}

export function RatioText({ group }: { group: UserGroupView }) {
  return (
    <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`user-group-ratio-${group.id}`}>
      ×{group.ratio}
    </Box>
  );
}

export function ApiRateText({ group }: { group: UserGroupView }) {
  const { t } = useTranslation('userGroup');
  return (
    <Box
      component="span"
      sx={{ fontVariantNumeric: 'tabular-nums', color: group.api_rate === 0 ? 'text.secondary' : undefined }}
      data-testid={`user-group-rate-${group.id}`}
    >
      {group.api_rate === 0 ? t('noLimit') : t('perMinute', { rate: group.api_rate.toLocaleString() })}
    </Box>
  );
}

export function PublicChip({ group }: { group: UserGroupView }) {
  const { t } = useTranslation('userGroup');
  return group.public ? (
    <ToneChip label={t('public.yes')} tone="success" testId={`user-group-public-${group.id}`} />
  ) : (
    <ToneChip label={t('public.no')} tone="secondary" testId={`user-group-public-${group.id}`} />
  );
}

/** Promotion bounds are whole US dollars of cumulative top-up; max 0 means no upper bound. */
export function PromotionText({ group }: { group: UserGroupView }) {
  const { t } = useTranslation('userGroup');
  const text = !group.promotion
    ? t('promotion.off')
    : group.max > 0
      ? t('promotion.range', { min: group.min, max: group.max })
      : t('promotion.from', { min: group.min });
  return (
    <Typography
      variant="body2"
      component="span"
      sx={{ color: group.promotion ? 'text.primary' : 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
      data-testid={`user-group-promotion-${group.id}`}
    >
      {text}
    </Typography>
  );
}

/** The enable switch; the default group cannot be disabled, which the tooltip explains. */
export function EnableSwitch({ group }: { group: UserGroupView }) {
  const { t } = useTranslation('userGroup');
  const toggle = useToggleUserGroup();
  const locked = group.symbol === DEFAULT_GROUP && group.enable;
  const title = locked ? t('defaultLocked.disable') : group.enable ? t('actions.disable') : t('actions.enable');
  return (
    <Tooltip title={title}>
      <span>
        <Switch
          size="small"
          checked={group.enable}
          disabled={locked || toggle.isPending}
          onChange={() =>
            toggle.mutate(group.id, {
              onSuccess: (saved) =>
                notify.success(t(saved.enable ? 'notify.enabled' : 'notify.disabled', { name: saved.name })),
            })
          }
          slotProps={{ input: { 'aria-label': t('actions.toggle', { name: group.name }) } }}
          data-testid={`user-group-toggle-${group.id}`}
          data-checked={group.enable}
        />
      </span>
    </Tooltip>
  );
}

export function UserGroupActions({ group, onEdit, onDelete }: { group: UserGroupView } & UserGroupRowHandlers) {
  const { t } = useTranslation('userGroup');
  const locked = group.symbol === DEFAULT_GROUP;
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <RowIconButton label={t('actions.edit')} onClick={() => onEdit(group)} testId={`user-group-edit-${group.id}`}>
        <EditOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.delete')}
        tooltip={locked ? t('defaultLocked.delete') : undefined}
        onClick={() => onDelete(group)}
        disabled={locked}
        danger
        testId={`user-group-delete-${group.id}`}
      >
        <DeleteOutlined fontSize="small" />
      </RowIconButton>
    </Stack>
  );
}
