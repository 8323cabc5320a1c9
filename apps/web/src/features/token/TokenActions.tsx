import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { clientKey, TokenStatus, type TokenView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { RowIconButton } from '../../components/RowIconButton.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { notify } from '../../lib/notify.js';
import { ChatLinkMenu } from './ChatLinkMenu.js';
import { useSetTokenStatus } from './token.api.js';

export interface TokenRowHandlers {
  onEdit(token: TokenView): void;
  onDelete(token: TokenView): void;
}

/** The enable switch of a key. Enabling an expired or exhausted key is left to the server to refuse. */
export function TokenStatusSwitch({ token, admin = false }: { token: TokenView; admin?: boolean }) {
  const { t } = useTranslation('token');
  const setStatus = useSetTokenStatus(admin);
  const enabled = token.status === TokenStatus.enabled;
  return (
    <Tooltip title={enabled ? t('actions.disable') : t('actions.enable')}>
      <Switch
        size="small"
        checked={enabled}
        disabled={setStatus.isPending}
        onChange={(_event, checked) =>
          setStatus.mutate(
            { id: token.id, status: checked ? TokenStatus.enabled : TokenStatus.disabled },
            { onSuccess: () => notify.success(checked ? t('notify.enabled') : t('notify.disabled')) },
          )
        }
        slotProps={{ input: { 'aria-label': t('actions.toggle', { name: token.name }) } }}
        data-testid={`token-toggle-${token.id}`}
        data-checked={enabled}
      />
    </Tooltip>
  );
}

/**
 * Copy, chat, edit and delete for one key. Another user's key (`admin`) can only be edited: its
 * key is masked and only its owner deletes it.
 */
export function TokenActions({
  token,
  onEdit,
  onDelete,
  admin = false,
}: { token: TokenView; admin?: boolean } & TokenRowHandlers) {
  const { t } = useTranslation('token');
  const edit = (
    <RowIconButton label={t('actions.edit')} onClick={() => onEdit(token)} testId={`token-edit-${token.id}`}>
      <EditOutlined fontSize="small" />
    </RowIconButton>
  );
  if (admin) return edit;
  // The list carries the key in full, without `sk-` (as the reference sends it); clients need the prefix.
  // A key sealed under another server secret comes back empty and cannot be copied.
  const copyKey = () => {
    if (token.key) void copyToClipboard(clientKey(token.key), t('key'));
    else notify.warning(t('notify.keyUnavailable'));
  };

  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center' }}>
      <RowIconButton label={t('actions.copy')} onClick={copyKey} testId={`token-copy-${token.id}`}>
        <ContentCopy fontSize="small" />
      </RowIconButton>
      <ChatLinkMenu tokenId={token.id} tokenKey={token.key} />
      {edit}
      <RowIconButton
        label={t('actions.delete')}
        onClick={() => onDelete(token)}
        danger
        testId={`token-delete-${token.id}`}
      >
        <DeleteOutlined fontSize="small" />
      </RowIconButton>
    </Stack>
  );
}
