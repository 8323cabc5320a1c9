import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import FingerprintRounded from '@mui/icons-material/FingerprintRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { SectionCard } from '../../components/SectionCard.js';
import {
  type PasskeyItem,
  passkeysSupported,
  useAddPasskey,
  useDeletePasskey,
  usePasskeys,
} from '../../hooks/usePasskeys.js';
import { usePendingDelete } from '../../hooks/usePendingDelete.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { formatTime } from '../../lib/format.js';
import { notify } from '../../lib/notify.js';

const ALIAS_MAX = 255;

/** The user's passkeys: named, dated, added on this device, deleted after a confirmation. Shown while the site allows passkeys. */
export function PasskeysCard() {
  const { t } = useTranslation('profile');
  const enabled = useSiteInfo().passkey_login;
  const passkeys = usePasskeys(enabled);
  const add = useAddPasskey();
  const remove = useDeletePasskey();
  const [alias, setAlias] = useState('');
  const [password, setPassword] = useState('');
  const pending = usePendingDelete<PasskeyItem>((item, done) =>
    remove.mutate(item.id, {
      onSuccess: () => {
        notify.success(t('passkeys.deleted'));
        done();
      },
    }),
  );
  if (!enabled) return null;
  const supported = passkeysSupported();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    add.mutate(
      { alias: alias.trim(), password },
      {
        onSuccess: () => {
          notify.success(t('passkeys.added'));
          setAlias('');
        },
        onSettled: () => setPassword(''),
      },
    );
  };

  return (
    <SectionCard
      icon={<FingerprintRounded />}
      title={t('passkeys.title')}
      subtitle={t('passkeys.subtitle')}
      testId="profile-passkeys"
      fill="none"
    >
      <Stack spacing={2}>
        {!supported && <Alert severity="info">{t('passkeys.unsupported')}</Alert>}
        <PasskeyList items={passkeys.data} loading={passkeys.isPending} onDelete={pending.ask} />
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <TextField
            size="small"
            name="alias"
            label={t('passkeys.alias')}
            helperText={t('passkeys.aliasHelp')}
            value={alias}
            onChange={(event) => setAlias(event.target.value.slice(0, ALIAS_MAX))}
            sx={{ flex: '1 1 240px' }}
            slotProps={{ htmlInput: { 'data-testid': 'passkey-alias', maxLength: ALIAS_MAX } }}
          />
          {/* The server adds a passkey only right after the password is confirmed. */}
          <TextField
            size="small"
            type="password"
            name="password"
            label={t('passkeys.password')}
            helperText={t('passkeys.passwordHelp')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="current-password"
            sx={{ flex: '1 1 200px' }}
            slotProps={{ htmlInput: { 'data-testid': 'passkey-password' } }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={!supported || !password}
            loading={add.isPending}
            data-testid="passkey-add"
            sx={{ alignSelf: 'flex-start', mt: 0.25 }}
          >
            {t('passkeys.add')}
          </Button>
        </Box>
      </Stack>
      <ConfirmDialog
        open={pending.subject !== null}
        title={t('passkeys.deleteTitle')}
        message={t('passkeys.deleteDescription', { alias: pending.subject?.alias ?? '' })}
        confirmLabel={t('passkeys.delete')}
        cancelLabel={t('cancel')}
        busy={remove.isPending}
        onConfirm={pending.confirm}
        onClose={pending.cancel}
        testId="passkey-delete-dialog"
      />
    </SectionCard>
  );
}

function PasskeyList(props: { items: PasskeyItem[] | undefined; loading: boolean; onDelete(item: PasskeyItem): void }) {
  const { t } = useTranslation('profile');
  if (props.loading) return <Skeleton variant="rounded" height={56} />;
  if (!props.items?.length) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="passkey-empty">
        {t('passkeys.empty')}
      </Typography>
    );
  }
  return (
    <List disablePadding data-testid="passkey-list">
      {props.items.map((item) => (
        <ListItem
          key={item.id}
          divider
          data-testid="passkey-item"
          secondaryAction={
            <Tooltip title={t('passkeys.delete')}>
              <IconButton
                edge="end"
                aria-label={t('passkeys.deleteNamed', { alias: item.alias })}
                onClick={() => props.onDelete(item)}
                data-testid="passkey-delete"
              >
                <DeleteOutlineRounded />
              </IconButton>
            </Tooltip>
          }
        >
          <ListItemText
            primary={item.alias}
            secondary={t('passkeys.created', { time: formatTime(item.created_time) })}
          />
        </ListItem>
      ))}
    </List>
  );
}
