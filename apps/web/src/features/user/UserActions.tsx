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
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { isAdminRole, type ManageAction, UserStatus, type UserView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { RowIconButton } from '../../components/RowIconButton.js';
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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const run = (action: ManageAction) => {
    close();
    onManage(user, action);
  };
  const enabled = user.status === UserStatus.enabled;
  return (
    <>
      <Tooltip title={t('actions.more')}>
        <IconButton
          size="small"
          aria-label={t('actions.moreFor', { name: user.username })}
          aria-haspopup="menu"
          onClick={(event) => setAnchor(event.currentTarget)}
          data-testid={`user-more-${user.id}`}
        >
          <MoreVert fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { dense: true, 'aria-label': t('actions.more') } }}
        data-testid={`user-menu-${user.id}`}
      >
        {permissions.status && (
          <MenuItem
            onClick={() => run(enabled ? 'disable' : 'enable')}
            data-testid={`user-${enabled ? 'disable' : 'enable'}-${user.id}`}
          >
            <ListItemIcon>
              {enabled ? <BlockOutlined fontSize="small" /> : <CheckCircleOutlined fontSize="small" />}
            </ListItemIcon>
            <ListItemText>{enabled ? t('actions.disable') : t('actions.enable')}</ListItemText>
          </MenuItem>
        )}
        {permissions.promote && (
          <MenuItem onClick={() => run('promote')} data-testid={`user-promote-${user.id}`}>
            <ListItemIcon>
              <AdminPanelSettingsOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('actions.promote')}</ListItemText>
          </MenuItem>
        )}
        {permissions.setReliable && (
          <MenuItem onClick={() => run('set_reliable')} data-testid={`user-set-reliable-${user.id}`}>
            <ListItemIcon>
              <VerifiedUserOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('actions.setReliable')}</ListItemText>
          </MenuItem>
        )}
        {permissions.demote && (
          <MenuItem onClick={() => run('demote')} data-testid={`user-demote-${user.id}`}>
            <ListItemIcon>
              <PersonRemoveOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{isAdminRole(user.role) ? t('actions.demote') : t('actions.revokeReliable')}</ListItemText>
          </MenuItem>
        )}
        <MenuItem component={RouterLink} to={userLogsPath(user)} onClick={close} data-testid={`user-logs-${user.id}`}>
          <ListItemIcon>
            <ReceiptLongOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('actions.logs')}</ListItemText>
        </MenuItem>
        {permissions.delete && <Divider />}
        {permissions.delete && (
          <MenuItem onClick={() => run('delete')} sx={{ color: 'error.main' }} data-testid={`user-delete-${user.id}`}>
            <ListItemIcon sx={{ color: 'inherit' }}>
              <DeleteOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('actions.delete')}</ListItemText>
          </MenuItem>
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
