import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { strings } from '../../i18n/strings.js';
import { ErrorScreen } from './ErrorScreen.js';

export function NotFoundPage() {
  const text = strings.notFound;
  return (
    <ErrorScreen
      code={text.code}
      title={text.title}
      description={text.description}
      action={
        <Button component={RouterLink} to="/" variant="contained" data-testid="not-found-home">
          {text.backHome}
        </Button>
      }
    />
  );
}
