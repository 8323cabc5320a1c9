import ContentCopy from '@mui/icons-material/ContentCopy';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { PaymentGatewayView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditDeleteActions } from '../../components/EditDeleteActions.js';
import { RowIconButton } from '../../components/RowIconButton.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { notify } from '../../lib/notify.js';
import { useUpdatePaymentGateway } from './payment.api.js';

export interface GatewayRowHandlers {
  onEdit(gateway: PaymentGatewayView): void;
  /** Root's only (the server refuses anyone else): without it the row offers no delete. */
  onDelete?: ((gateway: PaymentGatewayView) => void) | undefined;
}

/**
 * Where the vendor must send its callbacks (reference §4.10): the gateway's own notify domain, else
 * the site's server address, else this console's origin as a best guess the admin can check.
 */
export function notifyUrl(gateway: Pick<PaymentGatewayView, 'notify_domain' | 'uuid'>, serverAddress: string): string {
  const base = (gateway.notify_domain || serverAddress || window.location.origin).replace(/\/+$/, '');
  return `${base}/api/payment/notify/${gateway.uuid}`;
}

/** The uuid, and a button copying the full notify URL the vendor's console asks for. */
export function NotifyCell({ gateway }: { gateway: PaymentGatewayView }) {
  const { t } = useTranslation('payment');
  const { server_address: serverAddress } = useSiteInfo();
  const url = notifyUrl(gateway, serverAddress);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      <Tooltip title={url}>
        <Typography
          variant="caption"
          noWrap
          sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', color: 'text.secondary' }}
          data-testid={`payment-uuid-${gateway.id}`}
        >
          {gateway.uuid}
        </Typography>
      </Tooltip>
      <RowIconButton
        label={t('actions.copyNotify')}
        onClick={() => void copyToClipboard(url, t('notifyUrl'))}
        testId={`payment-copy-notify-${gateway.id}`}
      >
        <ContentCopy fontSize="small" />
      </RowIconButton>
    </Box>
  );
}

/** Turns a gateway on or off for users without opening the dialog (`PUT {id, enable}`). */
export function GatewayEnableSwitch({ gateway }: { gateway: PaymentGatewayView }) {
  const { t } = useTranslation('payment');
  const update = useUpdatePaymentGateway();
  return (
    <Switch
      size="small"
      checked={gateway.enable}
      disabled={update.isPending}
      onChange={(_event, enable) =>
        update.mutate(
          { id: gateway.id, enable },
          { onSuccess: () => notify.success(enable ? t('notify.enabled') : t('notify.disabled')) },
        )
      }
      slotProps={{ input: { 'aria-label': t('actions.toggle', { name: gateway.name }) } }}
      data-testid={`payment-toggle-${gateway.id}`}
      data-checked={gateway.enable}
    />
  );
}

/** The order users see gateways in (higher first), saved when the field is left (`PUT {id, sort}`). */
export function GatewaySortField({ gateway }: { gateway: PaymentGatewayView }) {
  const { t } = useTranslation('payment');
  const update = useUpdatePaymentGateway();
  const [text, setText] = useState(String(gateway.sort));
  const save = () => {
    const sort = Number(text);
    if (!/^\d+$/.test(text.trim())) {
      setText(String(gateway.sort));
      notify.error(t('form.errors.sort'));
      return;
    }
    if (sort !== gateway.sort) update.mutate({ id: gateway.id, sort });
  };
  return (
    <TextField
      size="small"
      type="number"
      value={text}
      onChange={(event) => setText(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => event.key === 'Enter' && (event.target as HTMLInputElement).blur()}
      disabled={update.isPending}
      sx={{ width: 80 }}
      slotProps={{
        htmlInput: {
          min: 0,
          'aria-label': t('actions.sort', { name: gateway.name }),
          'data-testid': `payment-sort-${gateway.id}`,
        },
      }}
    />
  );
}

export function GatewayActions({ gateway, onEdit, onDelete }: { gateway: PaymentGatewayView } & GatewayRowHandlers) {
  const { t } = useTranslation('payment');
  if (!onDelete) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <RowIconButton
          label={t('actions.editNamed', { name: gateway.name })}
          tooltip={t('actions.edit')}
          onClick={() => onEdit(gateway)}
          testId={`payment-edit-${gateway.id}`}
        >
          <EditOutlined fontSize="small" />
        </RowIconButton>
      </Box>
    );
  }
  return (
    <EditDeleteActions
      editLabel={t('actions.edit')}
      deleteLabel={t('actions.delete')}
      editAriaLabel={t('actions.editNamed', { name: gateway.name })}
      deleteAriaLabel={t('actions.deleteNamed', { name: gateway.name })}
      onEdit={() => onEdit(gateway)}
      onDelete={() => onDelete(gateway)}
      editTestId={`payment-edit-${gateway.id}`}
      deleteTestId={`payment-delete-${gateway.id}`}
    />
  );
}
