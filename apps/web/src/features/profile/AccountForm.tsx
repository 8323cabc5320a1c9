import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UserView } from '@one-hub/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { notify } from '../../lib/notify.js';
import { type AccountFormErrors, type AccountFormValues, checkAccountForm } from './accountForm.js';
import { PasskeyRemovalChoice } from './PasskeyRemovalChoice.js';
import { useUpdateSelf } from './profile.api.js';

const emptyPasswords = { currentPassword: '', password: '', confirmPassword: '' };

/** Display name and password (spec §5: password at least 8, confirmed; the username is read-only). */
export function AccountForm({ user }: { user: UserView | undefined }) {
  const { t } = useTranslation('profile');
  const update = useUpdateSelf();
  const [values, setValues] = useState<AccountFormValues>({ displayName: '', ...emptyPasswords });
  const [errors, setErrors] = useState<AccountFormErrors>({});
  const [showPassword, setShowPassword] = useState(false);
  const [removePasskeys, setRemovePasskeys] = useState<number[]>([]);
  const loadedName = user?.display_name ?? '';

  // Fill the form when the user arrives or changes elsewhere.
  useEffect(() => {
    setValues((current) => ({ ...current, displayName: loadedName }));
  }, [loadedName]);

  const change = (field: keyof AccountFormValues) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const dirty =
    values.displayName !== loadedName ||
    values.currentPassword !== '' ||
    values.password !== '' ||
    values.confirmPassword !== '';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = checkAccountForm(values, removePasskeys);
    if (result.errors) {
      setErrors(result.errors);
      return;
    }
    update.mutate(result.body, {
      onSuccess: () => {
        notify.success(result.body.password ? t('account.passwordChanged') : t('account.saved'));
        setValues((current) => ({ ...current, ...emptyPasswords }));
        setRemovePasskeys([]);
      },
    });
  };

  const visibilityLabel = showPassword ? t('account.hidePassword') : t('account.showPassword');
  const passwordAdornment = (
    <InputAdornment position="end">
      <IconButton edge="end" aria-label={visibilityLabel} onClick={() => setShowPassword((shown) => !shown)}>
        {showPassword ? <VisibilityOff /> : <Visibility />}
      </IconButton>
    </InputAdornment>
  );

  return (
    <SectionCard
      icon={<ManageAccountsOutlined />}
      title={t('account.title')}
      subtitle={t('account.subtitle')}
      testId="profile-account"
    >
      <Stack component="form" noValidate onSubmit={submit} spacing={2.25} aria-label={t('account.title')}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2.25 }}>
          <TextField
            label={t('account.username')}
            value={user?.username ?? ''}
            helperText={t('account.usernameHint')}
            disabled
            slotProps={{ htmlInput: { 'data-testid': 'profile-username' } }}
          />
          <TextField
            name="display_name"
            label={t('account.displayName')}
            value={values.displayName}
            onChange={change('displayName')}
            placeholder={user?.username}
            error={Boolean(errors.displayName)}
            helperText={errors.displayName ? t(errors.displayName) : t('account.displayNameHint')}
            autoComplete="nickname"
            slotProps={{ htmlInput: { 'data-testid': 'profile-display-name' } }}
          />
        </Box>
        <Divider />
        <Box>
          <Typography variant="subtitle2">{t('account.passwordTitle')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('account.passwordSubtitle')}
          </Typography>
        </Box>
        <TextField
          name="original_password"
          type={showPassword ? 'text' : 'password'}
          label={t('account.currentPassword')}
          value={values.currentPassword}
          onChange={change('currentPassword')}
          error={Boolean(errors.currentPassword)}
          helperText={errors.currentPassword ? t(errors.currentPassword) : t('account.currentPasswordHint')}
          autoComplete="current-password"
          slotProps={{ htmlInput: { 'data-testid': 'profile-current-password' } }}
        />
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2.25 }}>
          <TextField
            name="new_password"
            type={showPassword ? 'text' : 'password'}
            label={t('account.newPassword')}
            value={values.password}
            onChange={change('password')}
            error={Boolean(errors.password)}
            helperText={errors.password ? t(errors.password) : t('account.passwordHint')}
            autoComplete="new-password"
            slotProps={{ input: { endAdornment: passwordAdornment }, htmlInput: { 'data-testid': 'profile-password' } }}
          />
          <TextField
            name="confirm_password"
            type={showPassword ? 'text' : 'password'}
            label={t('account.confirmPassword')}
            value={values.confirmPassword}
            onChange={change('confirmPassword')}
            error={Boolean(errors.confirmPassword)}
            helperText={errors.confirmPassword ? t(errors.confirmPassword) : ' '}
            autoComplete="new-password"
            slotProps={{ htmlInput: { 'data-testid': 'profile-password-confirm' } }}
          />
        </Box>
        {values.password !== '' && (
          <PasskeyRemovalChoice selected={removePasskeys} onChange={setRemovePasskeys} disabled={update.isPending} />
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            type="submit"
            variant="contained"
            disabled={!user || !dirty}
            loading={update.isPending}
            data-testid="profile-save"
            sx={{ minWidth: 140 }}
          >
            {t('account.save')}
          </Button>
        </Box>
      </Stack>
    </SectionCard>
  );
}
