import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../components/Markdown.js';
import { readText, storageKeys, writeText } from '../../lib/storage.js';
import { useNoticeQuery } from './notice.api.js';

interface NoticeContextValue {
  openNotice(): void;
  hasNotice: boolean;
}

const NoticeContext = createContext<NoticeContextValue>({ openNotice: () => undefined, hasNotice: false });

/**
 * The announcement viewer. It opens by itself once per new notice text (the last text seen is kept
 * under `notice`), and from the top bar's notice button at any time.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  const notice = useNoticeQuery();
  const text = notice.data?.trim() ?? '';
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (text && text !== readText(storageKeys.notice)) setOpen(true);
  }, [text]);

  const close = useCallback(() => {
    if (text) writeText(storageKeys.notice, text);
    setOpen(false);
  }, [text]);

  const value = useMemo(() => ({ openNotice: () => setOpen(true), hasNotice: text !== '' }), [text]);

  return (
    <NoticeContext.Provider value={value}>
      {children}
      <Dialog
        open={open}
        onClose={close}
        maxWidth="sm"
        fullWidth
        aria-labelledby="notice-title"
        data-testid="notice-dialog"
      >
        <DialogTitle id="notice-title">{t('notice.title')}</DialogTitle>
        <DialogContent dividers>
          {text ? (
            <Markdown testId="notice-content">{text}</Markdown>
          ) : (
            <Typography sx={{ color: 'text.secondary' }}>{t('notice.empty')}</Typography>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button variant="contained" onClick={close} data-testid="notice-close">
            {t('notice.acknowledge')}
          </Button>
        </DialogActions>
      </Dialog>
    </NoticeContext.Provider>
  );
}

export function useNotice(): NoticeContextValue {
  return useContext(NoticeContext);
}
