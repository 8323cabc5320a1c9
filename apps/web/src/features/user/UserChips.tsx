import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import { roleName, type UserGroupView, UserStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useGroupName } from '../../hooks/useGroupName.js';

type Tone = 'primary' | 'secondary' | 'success' | 'warning' | 'error' | 'info';

/** A small tinted chip, the same look as the token status chip. */
function ToneChip({ label, tone, testId, state }: { label: string; tone: Tone; testId?: string; state?: string }) {
  return (
    <Chip
      size="small"
      label={label}
      data-testid={testId}
      data-state={state}
      sx={(theme) => ({
        height: 24,
        maxWidth: 180,
        fontWeight: 600,
        color: theme.palette.mode === 'dark' ? theme.palette[tone].light : theme.palette[tone].dark,
        bgcolor: alpha(theme.palette[tone].main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
        border: `1px solid ${alpha(theme.palette[tone].main, 0.28)}`,
      })}
    />
  );
}

const roleTones = {
  root: 'warning',
  admin: 'primary',
  reliable: 'success',
  common: 'secondary',
  unknown: 'secondary',
} as const;

export function RoleChip({ role, testId }: { role: number; testId?: string }) {
  const { t } = useTranslation('user');
  const name = roleName(role);
  return <ToneChip label={t(`role.${name}`)} tone={roleTones[name]} testId={testId} state={name} />;
}

export function StatusChip({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('user');
  const enabled = status === UserStatus.enabled;
  const state = enabled ? 'enabled' : 'disabled';
  return <ToneChip label={t(`status.${state}`)} tone={enabled ? 'success' : 'error'} testId={testId} state={state} />;
}

/** The group's name (its symbol when the group is unknown), with symbol and ratio on hover. */
export function GroupChip({ symbol, group, testId }: { symbol: string; group?: UserGroupView; testId?: string }) {
  const { t } = useTranslation('user');
  const groupName = useGroupName();
  const chip = (
    <span>
      <ToneChip
        label={groupName(group, symbol)}
        tone={group?.enable === false ? 'secondary' : 'info'}
        testId={testId}
        state={symbol}
      />
    </span>
  );
  if (!group) return chip;
  return (
    <Tooltip title={t('groupHint', { symbol, ratio: group.ratio })} describeChild>
      {chip}
    </Tooltip>
  );
}
