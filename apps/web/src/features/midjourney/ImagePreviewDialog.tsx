import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { MidjourneyTaskView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';

interface ImagePreviewDialogProps {
  open: boolean;
  /** The task shown; kept by the caller while the dialog fades out. */
  task: MidjourneyTaskView | null;
  onClose(): void;
}

/** The result picture at full size (fitted to the screen), with its prompt and a link to the original. */
export function ImagePreviewDialog({ open, task, onClose }: ImagePreviewDialogProps) {
  const { t } = useTranslation('midjourney');
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const source = task?.image_src ?? '';
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullScreen={fullScreen} data-testid="mj-preview">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('image.title', { id: task?.mj_id ?? '' })}</DialogTitle>
      <DialogContent dividers sx={{ p: { xs: 1, sm: 2 } }}>
        {task && (
          <Box
            component="img"
            src={source}
            alt={t('image.alt', { id: task.mj_id })}
            data-testid="mj-preview-image"
            sx={{
              display: 'block',
              mx: 'auto',
              maxWidth: '100%',
              maxHeight: fullScreen ? 'calc(100vh - 220px)' : '70vh',
              minWidth: 120,
              minHeight: 120,
              objectFit: 'contain',
              borderRadius: 1,
              bgcolor: 'action.hover',
            }}
          />
        )}
        {task?.prompt && (
          <Typography
            variant="body2"
            sx={{ mt: 1.5, color: 'text.secondary', overflowWrap: 'anywhere', maxWidth: 720 }}
          >
            {task.prompt}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          href={source}
          target="_blank"
          rel="noopener noreferrer"
          startIcon={<OpenInNew />}
          disabled={!task}
          data-testid="mj-preview-original"
        >
          {t('image.original')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="mj-preview-close">
          {t('image.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
