import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';

/** What a signed-in user sees on a route above their role: admin-only, or (`rootOnly`) root-only. */
export function ForbiddenPage({ rootOnly = false }: { rootOnly?: boolean }) {
  const { t } = useTranslation();
  return (
    <StatusScreen
      testId="forbidden"
      badge="403"
      title={t('status.forbiddenTitle')}
      description={t(rootOnly ? 'status.rootOnlyDescription' : 'status.forbiddenDescription')}
      action={
        <Button component={RouterLink} to="/panel" variant="contained">
          {t('backToConsole')}
        </Button>
      }
    />
  );
}
