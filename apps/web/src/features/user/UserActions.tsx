import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import PaidOutlined from '@mui/icons-material/PaidOutlined';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { isAdminRole, type ManageAction, UserStatus, type UserView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { menuItems } from '../../components/menuItems.js';
import { RowIconButton } from '../../components/RowIconButton.js';
import { useMenuAnchor } from '../../hooks/useMenuAnchor.js';
import { canDoAnything, type UserPermissions } from './userPermissions.js';

export interface UserRowHandlers {
  onEdit(user: UserView): void;
  onQuota(user: UserView): void;
  onManage(user: UserView, action: ManageAction): void;
}

/** The link to this user's entries on the log screen. */
export function userLogsPath(user: UserView): string {
  return `/panel/log?${new URLSearchParams({ username: user.username }).toString()}`;
}

function MoreMenu({
  user,
  permissions,
  onManage,
}: { user: UserView; permissions: UserPermissions } & Pick<UserRowHandlers, 'onManage'>) {
  const { t } = useTranslation('user');
  const { show, close, menu } = useMenuAnchor(true);
  const enabled = user.status === UserStatus.enabled;
  return (
    <>
      <Tooltip title={t('actions.more')}>
        <IconButton
          size="small"
          aria-label={t('actions.moreFor', { name: user.username })}
          aria-haspopup="menu"
          onClick={show}
          data-testid={`user-more-${user.id}`}
        >
          <MoreVert fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu
        {...menu}
        slotProps={{ list: { dense: true, 'aria-label': t('actions.more') } }}
        data-testid={`user-menu-${user.id}`}
      >
        {menuItems(
          [
            permissions.status && {
              testId: `user-${enabled ? 'disable' : 'enable'}-${user.id}`,
              icon: enabled ? <BlockOutlined fontSize="small" /> : <CheckCircleOutlined fontSize="small" />,
              label: enabled ? t('actions.disable') : t('actions.enable'),
              onClick: () => onManage(user, enabled ? 'disable' : 'enable'),
            },
            permissions.promote && {
              testId: `user-promote-${user.id}`,
              icon: <AdminPanelSettingsOutlined fontSize="small" />,
              label: t('actions.promote'),
              onClick: () => onManage(user, 'promote'),
            },
            permissions.setReliable && {
              testId: `user-set-reliable-${user.id}`,
              icon: <VerifiedUserOutlined fontSize="small" />,
              label: t('actions.setReliable'),
              onClick: () => onManage(user, 'set_reliable'),
            },
            permissions.demote && {
              testId: `user-demote-${user.id}`,
              icon: <PersonRemoveOutlined fontSize="small" />,
              label: isAdminRole(user.role) ? t('actions.demote') : t('actions.revokeReliable'),
              onClick: () => onManage(user, 'demote'),
            },
            {
              testId: `user-logs-${user.id}`,
              icon: <ReceiptLongOutlined fontSize="small" />,
              label: t('actions.logs'),
              to: userLogsPath(user),
            },
            permissions.delete && {
              testId: `user-delete-${user.id}`,
              icon: <DeleteOutlined fontSize="small" />,
              label: t('actions.delete'),
              onClick: () => onManage(user, 'delete'),
              danger: true,
            },
          ],
          close,
        )}
      </Menu>
    </>
  );
}

/**
 * Edit, adjust quota and the other actions of one user; only those the caller is allowed.
 * A row the caller may not manage at all shows a lock that says why.
 */
export function UserActions({
  user,
  permissions,
  onEdit,
  onQuota,
  onManage,
}: { user: UserView; permissions: UserPermissions } & UserRowHandlers) {
  const { t } = useTranslation('user');
  if (!canDoAnything(permissions)) {
    return (
      <Tooltip title={t('actions.locked')}>
        <LockOutlined
          fontSize="small"
          sx={{ color: 'text.disabled', mx: 1, verticalAlign: 'middle' }}
          aria-label={t('actions.locked')}
          data-testid={`user-locked-${user.id}`}
        />
      </Tooltip>
    );
  }
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      {permissions.edit && (
        <RowIconButton label={t('actions.edit')} onClick={() => onEdit(user)} testId={`user-edit-${user.id}`}>
          <EditOutlined fontSize="small" />
        </RowIconButton>
      )}
      {permissions.quota && (
        <RowIconButton label={t('actions.quota')} onClick={() => onQuota(user)} testId={`user-quota-action-${user.id}`}>
          <PaidOutlined fontSize="small" />
        </RowIconButton>
      )}
      <MoreMenu user={user} permissions={permissions} onManage={onManage} />
    </Stack>
  );
}
