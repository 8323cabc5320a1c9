import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { clientKey, type TokenView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { useLastShown } from '../../hooks/useLastShown.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { useDeleteToken } from './token.api.js';

/** Asks before deleting a key: clients using it stop working at once. */
export function DeleteTokenDialog({ token, onClose }: { token: TokenView | null; onClose(): void }) {
  const { t } = useTranslation('token');
  const remove = useDeleteToken();
  return (
    <DeleteDialog
      row={token}
      onClose={onClose}
      remove={remove}
      title={t('delete.title')}
      message={t('delete.message', { name: token?.name ?? '' })}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      deletedText={(deleted) => t('notify.deleted', { name: deleted.name })}
      testIdPrefix="token"
    />
  );
}

/** Shows the whole key of a key just created, with a copy button. */
export function KeyCreatedDialog({ token: current, onClose }: { token: TokenView | null; onClose(): void }) {
  const { t } = useTranslation('token');
  const token = useLastShown(current);
  return (
    <Dialog open={current !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="token-created-dialog">
      <DialogTitle>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CheckCircleOutlineOutlined color="success" />
          <span>{t('created.title', { name: token?.name ?? '' })}</span>
        </Stack>
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('created.message')}</DialogContentText>
        <Box
          data-testid="token-created-key"
          sx={{
            p: 1.5,
            borderRadius: 1,
            bgcolor: 'action.hover',
            border: 1,
            borderColor: 'divider',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: '0.875rem',
            wordBreak: 'break-all',
          }}
        >
          {token ? clientKey(token.key) : ''}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit" data-testid="token-created-close">
          {t('created.done')}
        </Button>
        <Button
          variant="contained"
          startIcon={<ContentCopy />}
          onClick={() => token && void copyToClipboard(clientKey(token.key), t('key'))}
          data-testid="token-created-copy"
        >
          {t('actions.copy')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
