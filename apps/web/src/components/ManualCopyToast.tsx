import CloseRounded from '@mui/icons-material/CloseRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The body of the "copy it by hand" toast: the text, selectable, and a close button. */
export function ManualCopyToast({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', maxWidth: 420 }} data-testid="manual-copy-toast">
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.75 }}>
          {t('copy.manualTitle')}
        </Typography>
        <Box
          component="code"
          sx={{
            display: 'block',
            p: 1,
            borderRadius: '6px',
            bgcolor: 'rgba(0,0,0,0.18)',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 12.5,
            wordBreak: 'break-all',
            userSelect: 'all',
          }}
        >
          {text}
        </Box>
      </Box>
      <IconButton size="small" color="inherit" onClick={onDismiss} aria-label={t('copy.dismiss')}>
        <CloseRounded fontSize="small" />
      </IconButton>
    </Box>
  );
}
