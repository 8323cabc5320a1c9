import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useWeChatCode } from '../../hooks/useWeChatCode.js';
import { notify } from '../../lib/notify.js';
import { useBindWeChat } from './profile.api.js';

/** Binds WeChat: the user follows the site's official account, which replies with a code. */
export function WeChatBindDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const { wechat_qrcode: qrCode } = useSiteInfo();
  const bind = useBindWeChat();
  const code = useWeChatCode();
  const { reset } = code;

  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts empty; `reset` is new every render.
  useEffect(() => {
    if (open) reset();
  }, [open]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = code.parse();
    if (!parsed) return;
    bind.mutate(parsed, {
      onSuccess: () => {
        notify.success(t('wechat.bound'));
        onClose();
      },
    });
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="profile-wechat-dialog">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{t('wechat.title')}</DialogTitle>
        <DialogContent>
          {qrCode && (
            <Box
              component="img"
              src={qrCode}
              alt={t('wechat.qrAlt')}
              sx={{
                display: 'block',
                width: 180,
                height: 180,
                objectFit: 'contain',
                mx: 'auto',
                mb: 2,
                borderRadius: 1,
              }}
            />
          )}
          <DialogContentText sx={{ mb: 2.5 }}>{t('wechat.description')}</DialogContentText>
          <TextField
            label={t('wechat.code')}
            {...code.input}
            error={code.invalid}
            helperText={code.invalid ? t('wechat.codeRequired') : t('wechat.codeHint')}
            autoFocus
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { 'data-testid': 'profile-wechat-code' } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose} color="inherit">
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={bind.isPending} data-testid="profile-wechat-submit">
            {t('wechat.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
