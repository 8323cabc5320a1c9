import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';

/** What a signed-in user who is not an admin sees on an admin-only route. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <StatusScreen
      testId="forbidden"
      badge="403"
      title={t('status.forbiddenTitle')}
      description={t('status.forbiddenDescription')}
      action={
        <Button component={RouterLink} to="/panel" variant="contained">
          {t('backToConsole')}
        </Button>
      }
    />
  );
}
