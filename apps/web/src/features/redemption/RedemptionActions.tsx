import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { RedemptionStatus, type RedemptionView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { RowIconButton } from '../../components/RowIconButton.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { notify } from '../../lib/notify.js';
import { useSetRedemptionStatus } from './redemption.api.js';

export interface RedemptionRowHandlers {
  onEdit(code: RedemptionView): void;
  onDelete(code: RedemptionView): void;
}

/** Enables or disables a code. A redeemed code is spent for good, so its switch is off and locked. */
export function RedemptionStatusSwitch({ code }: { code: RedemptionView }) {
  const { t } = useTranslation('redemption');
  const setStatus = useSetRedemptionStatus();
  const redeemed = code.status === RedemptionStatus.redeemed;
  const enabled = code.status === RedemptionStatus.enabled;
  const tooltip = redeemed ? t('actions.redeemedLocked') : enabled ? t('actions.disable') : t('actions.enable');
  return (
    <Tooltip title={tooltip}>
      <span>
        <Switch
          size="small"
          checked={enabled}
          disabled={redeemed || setStatus.isPending}
          onChange={(_event, checked) =>
            setStatus.mutate(
              { id: code.id, status: checked ? RedemptionStatus.enabled : RedemptionStatus.disabled },
              { onSuccess: () => notify.success(checked ? t('notify.enabled') : t('notify.disabled')) },
            )
          }
          slotProps={{ input: { 'aria-label': t('actions.toggle', { name: code.name }) } }}
          data-testid={`redemption-toggle-${code.id}`}
          data-checked={enabled}
        />
      </span>
    </Tooltip>
  );
}

/** Copy, edit and delete for one code. */
export function RedemptionActions({ code, onEdit, onDelete }: { code: RedemptionView } & RedemptionRowHandlers) {
  const { t } = useTranslation('redemption');
  return (
    <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center' }}>
      <RowIconButton
        label={t('actions.copy')}
        tooltip={code.key ? t('actions.copy') : t('actions.copyUnavailable')}
        onClick={() => void copyToClipboard(code.key, t('code'))}
        disabled={!code.key}
        testId={`redemption-copy-${code.id}`}
      >
        <ContentCopy fontSize="small" />
      </RowIconButton>
      <RowIconButton label={t('actions.edit')} onClick={() => onEdit(code)} testId={`redemption-edit-${code.id}`}>
        <EditOutlined fontSize="small" />
      </RowIconButton>
      <RowIconButton
        label={t('actions.delete')}
        onClick={() => onDelete(code)}
        danger
        testId={`redemption-delete-${code.id}`}
      >
        <DeleteOutlined fontSize="small" />
      </RowIconButton>
    </Stack>
  );
}
