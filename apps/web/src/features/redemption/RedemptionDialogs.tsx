import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import ContentCopy from '@mui/icons-material/ContentCopy';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { RedemptionStatus, type RedemptionView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { useLastShown } from '../../hooks/useLastShown.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { downloadFile } from '../../lib/download.js';
import { type CreatedBatch, codesAsCsv, codesAsLines, codesAsText, exportFileName } from './codesExport.js';
import { useDeleteRedemption } from './redemption.api.js';

/** Asks before deleting a code for good; an unredeemed one can then no longer be used. */
export function DeleteRedemptionDialog({ code, onClose }: { code: RedemptionView | null; onClose(): void }) {
  const { t } = useTranslation('redemption');
  const remove = useDeleteRedemption();
  const unused = code?.status !== RedemptionStatus.redeemed;
  const names = { name: code?.name ?? '', id: code?.id ?? '' };
  return (
    <DeleteDialog
      row={code}
      onClose={onClose}
      remove={remove}
      title={t('delete.title')}
      message={unused ? t('delete.messageUnused', names) : t('delete.messageRedeemed', names)}
      confirmLabel={t('delete.confirm')}
      cancelLabel={t('form.cancel')}
      deletedText={(deleted) => t('notify.deleted', { name: deleted.name })}
      testIdPrefix="redemption"
    />
  );
}

/** The codes of a batch just created, to copy all at once or save as a .txt or .csv file. */
export function CodesCreatedDialog({ batch: current, onClose }: { batch: CreatedBatch | null; onClose(): void }) {
  const { t } = useTranslation('redemption');
  const format = useQuotaFormatter();
  const batch = useLastShown(current);
  const keys = batch?.keys ?? [];
  const save = (extension: 'txt' | 'csv') => {
    if (!batch) return;
    const name = exportFileName(batch.name, extension, new Date());
    if (extension === 'txt') downloadFile(name, codesAsText(batch.keys), 'text/plain');
    else downloadFile(name, codesAsCsv(batch), 'text/csv');
  };
  return (
    <Dialog open={current !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="redemption-created-dialog">
      <DialogTitle>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CheckCircleOutlineOutlined color="success" />
          <span>{t('created.title', { count: keys.length })}</span>
        </Stack>
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('created.message', { name: batch?.name ?? '', amount: format(batch?.quota ?? 0) })}
        </DialogContentText>
        <Box
          data-testid="redemption-created-codes"
          data-count={keys.length}
          sx={{
            maxHeight: 280,
            overflowY: 'auto',
            p: 1.5,
            borderRadius: 1,
            bgcolor: 'action.hover',
            border: 1,
            borderColor: 'divider',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: '0.875rem',
            lineHeight: 1.8,
            wordBreak: 'break-all',
          }}
        >
          {keys.map((key) => (
            <div key={key} data-testid="redemption-created-code">
              {key}
            </div>
          ))}
        </Box>
        <DialogContentText variant="body2" sx={{ mt: 1.5 }}>
          {t('created.later')}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button onClick={onClose} color="inherit" data-testid="redemption-created-close" sx={{ mr: 'auto' }}>
          {t('created.done')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={() => save('txt')}
          data-testid="redemption-created-export-txt"
        >
          {t('created.exportTxt')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<FileDownloadOutlined />}
          onClick={() => save('csv')}
          data-testid="redemption-created-export-csv"
        >
          {t('created.exportCsv')}
        </Button>
        <Button
          variant="contained"
          startIcon={<ContentCopy />}
          onClick={() => void copyToClipboard(codesAsLines(keys), t('created.codes'))}
          data-testid="redemption-created-copy"
        >
          {t('created.copyAll')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
