import Button from '@mui/material/Button';
import { useRouteError } from 'react-router';
import { strings } from '../../i18n/strings.js';
import { errorMessage } from '../../lib/api.js';
import { ErrorScreen } from './ErrorScreen.js';

export function RouteErrorPage() {
  const error = useRouteError();
  const detail = error instanceof Error ? errorMessage(error) : '';
  return (
    <ErrorScreen
      title={strings.routeError.title}
      description={detail ? `${strings.routeError.description} (${detail})` : strings.routeError.description}
      action={
        <Button variant="contained" onClick={() => window.location.reload()}>
          {strings.routeError.reload}
        </Button>
      }
    />
  );
}
