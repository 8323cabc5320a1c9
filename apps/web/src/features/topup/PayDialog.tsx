import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../lib/clipboard.js';
import { notify } from '../../lib/notify.js';
import type { PaymentOrder } from './payment.js';
import { useOrderPaid } from './topup.api.js';

/** Type 1 orders go to the gateway's page in a new tab; a form post carries its fields along. */
export function openPaymentPage(order: PaymentOrder): void {
  const { url, method, params } = order.data;
  if (!params || (method ?? 'GET').toUpperCase() === 'GET') {
    const target = new URL(url, window.location.href);
    for (const [name, value] of Object.entries(params ?? {})) target.searchParams.set(name, String(value));
    window.open(target.href, '_blank', 'noopener');
    return;
  }
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.target = '_blank';
  for (const [name, value] of Object.entries(params)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}

/** Waits for the order to be paid (polling), with the payment address for code-type gateways. */
export function PayDialog({ order, onClose }: { order: PaymentOrder | null; onClose: () => void }) {
  const { t } = useTranslation('topup');
  const paid = useOrderPaid(order?.trade_no ?? null);
  const isPaid = paid.data === true;

  useEffect(() => {
    if (isPaid) notify.success(t('pay.paid'));
  }, [isPaid, t]);

  return (
    <Dialog open={order !== null} onClose={onClose} fullWidth maxWidth="xs" data-testid="topup-pay-dialog">
      <DialogTitle>{t('pay.dialogTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', pt: 1 }}>
          {isPaid ? (
            <Box sx={{ color: 'success.main', '& svg': { fontSize: 48 } }}>
              <CheckCircleOutlined />
            </Box>
          ) : (
            <CircularProgress size={40} />
          )}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {isPaid
              ? t('pay.paidDescription')
              : order?.type === 2
                ? t('pay.scanDescription')
                : t('pay.waitDescription')}
          </Typography>
          {order && order.type === 2 && !isPaid && (
            <Stack spacing={1} sx={{ width: '100%' }}>
              <TextField
                label={t('pay.address')}
                value={order.data.url}
                slotProps={{ input: { readOnly: true } }}
                size="small"
              />
              <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
                <Button
                  size="small"
                  startIcon={<ContentCopyOutlined />}
                  onClick={() => void copyToClipboard(order.data.url, t('pay.address'))}
                >
                  {t('pay.copyAddress')}
                </Button>
                <Button
                  size="small"
                  startIcon={<OpenInNewOutlined />}
                  href={order.data.url}
                  target="_blank"
                  rel="noopener"
                >
                  {t('pay.openAddress')}
                </Button>
              </Stack>
            </Stack>
          )}
          {order && order.type !== 2 && !isPaid && (
            <Button size="small" startIcon={<OpenInNewOutlined />} onClick={() => openPaymentPage(order)}>
              {t('pay.reopen')}
            </Button>
          )}
          {order && (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('pay.tradeNo', { tradeNo: order.trade_no })}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{isPaid ? t('pay.done') : t('pay.later')}</Button>
      </DialogActions>
    </Dialog>
  );
}
