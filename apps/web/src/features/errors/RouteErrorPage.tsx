import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';
import { errorMessage } from '../../lib/api.js';

export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = error instanceof Error ? errorMessage(error) : '';
  return (
    <StatusScreen
      title={t('status.routeErrorTitle')}
      description={detail ? `${t('status.routeErrorDescription')} (${detail})` : t('status.routeErrorDescription')}
      action={
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('reload')}
        </Button>
      }
    />
  );
}
