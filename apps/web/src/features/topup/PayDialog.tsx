import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
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
import { type PayInstruction, PaymentAction } from '@one-hub/contracts';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../lib/clipboard.js';
import { notify } from '../../lib/notify.js';
import { openPaymentPage } from './paymentTab.js';
import { useOrderStatus } from './topup.api.js';

/** The QR code on a white tile whatever the theme: phone cameras read dark-on-light codes best. */
function PaymentCode({ url }: { url: string }) {
  const { t } = useTranslation('topup');
  return (
    <Box
      sx={{ p: 1.5, bgcolor: '#fff', borderRadius: '10px', lineHeight: 0 }}
      data-testid="topup-pay-qr"
      data-url={url}
    >
      <QRCodeSVG value={url} size={200} marginSize={0} title={t('pay.qrLabel')} />
    </Box>
  );
}

function StateIcon({ state }: { state: 'pending' | 'success' | 'failed' }) {
  if (state === 'pending') return <CircularProgress size={40} />;
  return (
    <Box sx={{ color: state === 'success' ? 'success.main' : 'error.main', '& svg': { fontSize: 48 } }}>
      {state === 'success' ? <CheckCircleOutlined /> : <ErrorOutlineOutlined />}
    </Box>
  );
}

/** Waits for the order to be paid (polling every 3 s while open), with the QR code for code-type gateways. */
export function PayDialog({ order, onClose }: { order: PayInstruction | null; onClose: () => void }) {
  const { t } = useTranslation('topup');
  const status = useOrderStatus(order?.trade_no ?? null);
  const current = status.data ?? { state: 'pending' as const };
  const isPaid = current.state === 'success';
  const waiting = current.state === 'pending';

  useEffect(() => {
    if (isPaid) notify.success(t('pay.paid'));
  }, [isPaid, t]);

  return (
    <Dialog open={order !== null} onClose={onClose} fullWidth maxWidth="xs" data-testid="topup-pay-dialog">
      <DialogTitle>{t('pay.dialogTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', pt: 1 }}>
          {order?.type === PaymentAction.showQrCode && waiting ? (
            <PaymentCode url={order.data.url} />
          ) : (
            <StateIcon state={current.state} />
          )}
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={`topup-pay-state-${current.state}`}>
            {current.state === 'success'
              ? t('pay.paidDescription')
              : current.state === 'failed'
                ? t('pay.failedDescription', { reason: current.message })
                : order?.type === PaymentAction.showQrCode
                  ? t('pay.scanDescription')
                  : t('pay.waitDescription')}
          </Typography>
          {order && order.type === PaymentAction.showQrCode && waiting && (
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
          {order && order.type === PaymentAction.openUrl && waiting && (
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
        <Button onClick={onClose} data-testid="topup-pay-close">
          {waiting ? t('pay.later') : t('pay.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
