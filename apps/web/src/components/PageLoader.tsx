import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';

/** Shown while a lazily loaded screen arrives. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ py: 6, px: 2, display: 'flex', justifyContent: 'center' }} aria-busy="true">
      <LinearProgress sx={{ width: 160, borderRadius: 1 }} aria-label={t('loading')} />
    </Box>
  );
}
