import Alert from '@mui/material/Alert';
import Collapse from '@mui/material/Collapse';
import { strings } from '../../i18n/strings.js';

export function ServerStatusBanner({ visible }: { visible: boolean }) {
  return (
    <Collapse in={visible} unmountOnExit>
      <Alert severity="error" variant="filled" role="alert" sx={{ borderRadius: 0, justifyContent: 'center' }}>
        {strings.app.serverUnreachable}
      </Alert>
    </Collapse>
  );
}
