import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import { useSelf } from '../../hooks/useSelf.js';
import { describeError } from '../../lib/notify.js';
import { AccessTokenCard } from './AccessTokenCard.js';
import { AccountForm } from './AccountForm.js';
import { BindingsCard } from './BindingsCard.js';
import { PasskeysCard } from './PasskeysCard.js';
import { ProfileHeader } from './ProfileHeader.js';

/** The signed-in user's own settings: names, password, access token and linked accounts. */
export function ProfilePage() {
  const self = useSelf();
  const user = self.data;

  return (
    <Box>
      <ProfileHeader user={user} />
      {self.isError && (
        <Alert severity="error" sx={{ mb: 2.5 }}>
          {describeError(self.error)}
        </Alert>
      )}
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <AccountForm user={user} />
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <AccessTokenCard user={user} />
        </Grid>
        <Grid size={12}>{user ? <BindingsCard user={user} /> : <Skeleton variant="rounded" height={220} />}</Grid>
        <Grid size={12}>
          <PasskeysCard />
        </Grid>
      </Grid>
    </Box>
  );
}
