import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';

export function NotFoundPage() {
  const { t } = useTranslation();
  const inConsole = useLocation().pathname.startsWith('/panel');
  return (
    <StatusScreen
      testId="not-found"
      badge="404"
      title={t('status.notFoundTitle')}
      description={t('status.notFoundDescription')}
      action={
        <Button component={RouterLink} to={inConsole ? '/panel' : '/'} variant="contained" data-testid="not-found-home">
          {inConsole ? t('backToConsole') : t('backHome')}
        </Button>
      }
    />
  );
}
