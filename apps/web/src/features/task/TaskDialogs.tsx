import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog.js';
import { monospace } from '../../components/tasks/TaskCells.js';
import { copyToClipboard } from '../../lib/clipboard.js';

interface TextDialogProps {
  open: boolean;
  onClose(): void;
  title: ReactNode;
  /** The text shown, kept as it is (line breaks and indentation). */
  text: string;
  /** JSON in a code font, lyrics in the body font. */
  code: boolean;
  testId: string;
}

/** A read-only text in a dialog (full screen on phones) with a copy button: a task's lyrics or its response body. */
export function TextDialog({ open, onClose, title, text, code, testId }: TextDialogProps) {
  const { t } = useTranslation('task');
  return (
    <FormDialog open={open} onClose={onClose} maxWidth="md" testId={testId}>
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{title}</DialogTitle>
      <DialogContent dividers>
        {text ? (
          <Box
            component="pre"
            data-testid={`${testId}-text`}
            sx={{
              m: 0,
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
              fontFamily: code ? monospace : 'inherit',
              fontSize: code ? '0.8125rem' : '0.9375rem',
              lineHeight: code ? 1.55 : 1.8,
            }}
          >
            {text}
          </Box>
        ) : (
          <Typography sx={{ color: 'text.secondary' }}>{t('dialog.empty')}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        {text && <Button onClick={() => void copyToClipboard(text, t('dialog.content'))}>{t('dialog.copy')}</Button>}
        <Button variant="contained" onClick={onClose} data-testid={`${testId}-close`}>
          {t('dialog.close')}
        </Button>
      </DialogActions>
    </FormDialog>
  );
}
