import Tooltip from '@mui/material/Tooltip';
import { roleName, type UserGroupView, UserStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StateChip } from '../../components/StateChip.js';
import { useGroupName } from '../../hooks/useGroupName.js';

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
  return <StateChip label={t(`role.${name}`)} color={roleTones[name]} testId={testId} state={name} maxWidth={180} />;
}

export function StatusChip({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('user');
  const enabled = status === UserStatus.enabled;
  const state = enabled ? 'enabled' : 'disabled';
  return (
    <StateChip
      label={t(`status.${state}`)}
      color={enabled ? 'success' : 'error'}
      testId={testId}
      state={state}
      maxWidth={180}
    />
  );
}

/** The group's name (its symbol when the group is unknown), with symbol and ratio on hover. */
export function GroupChip({ symbol, group, testId }: { symbol: string; group?: UserGroupView; testId?: string }) {
  const { t } = useTranslation('user');
  const groupName = useGroupName();
  const chip = (
    <span>
      <StateChip
        maxWidth={180}
        label={groupName(group, symbol)}
        color={group?.enable === false ? 'secondary' : 'info'}
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
