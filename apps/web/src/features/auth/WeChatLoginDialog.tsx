import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useWeChatCode } from '../../hooks/useWeChatCode.js';
import { describeError, notify } from '../../lib/notify.js';
import { useWeChatLogin } from './auth.api.js';

interface WeChatLoginDialogProps {
  open: boolean;
  /** The image of the WeChat official account's QR code (site info `wechat_qrcode`). */
  qrCode: string;
  onClose(): void;
}

/** WeChat sign-in: scan the account's QR code, get a code valid for 3 minutes, enter it here (spec §5). */
export function WeChatLoginDialog({ open, qrCode, onClose }: WeChatLoginDialogProps) {
  const { t } = useTranslation('auth');
  const code = useWeChatCode();
  const weChatLogin = useWeChatLogin();
  const navigate = useNavigate();

  const close = () => {
    if (weChatLogin.isPending) return;
    weChatLogin.reset();
    code.reset(true);
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = code.parse();
    if (!parsed) return;
    weChatLogin.mutate(parsed.code, {
      onSuccess: () => {
        notify.success(t('login.success'));
        void navigate('/panel', { replace: true });
      },
    });
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="wechat-login-title">
      <Box component="form" noValidate onSubmit={submit} data-testid="wechat-dialog">
        <DialogTitle id="wechat-login-title">{t('wechat.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ alignItems: 'center' }}>
            {qrCode ? (
              <Box
                component="img"
                src={qrCode}
                alt={t('wechat.qrAlt')}
                sx={{
                  width: 200,
                  height: 200,
                  objectFit: 'contain',
                  borderRadius: 2,
                  border: 1,
                  borderColor: 'divider',
                  bgcolor: '#fff',
                  p: 1,
                }}
              />
            ) : (
              <Alert severity="warning" sx={{ width: '100%' }}>
                {t('wechat.noQrCode')}
              </Alert>
            )}
            <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }}>
              {t('wechat.instructions')}
            </Typography>
            {weChatLogin.isError && (
              <Alert severity="error" sx={{ width: '100%' }} data-testid="wechat-error">
                {describeError(weChatLogin.error)}
              </Alert>
            )}
            <TextField
              name="wechat-code"
              label={t('wechat.code')}
              {...code.input}
              error={code.invalid}
              helperText={code.invalid ? t('validation.codeRequired') : t('wechat.codeHint')}
              autoComplete="one-time-code"
              autoFocus
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={weChatLogin.isPending}>
            {t('common:close')}
          </Button>
          <Button type="submit" variant="contained" loading={weChatLogin.isPending} data-testid="wechat-submit">
            {t('login.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
