import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DISPLAY_NAME_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  type UserGroupView,
  type UserView,
} from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { saveWith, useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useSession } from '../../hooks/useSession.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useWords } from '../../i18n/useWords.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import { UserBudgetSection } from './UserBudgetSection.js';
import { useSaveUser } from './user.api.js';
import {
  emptyUserForm,
  formFieldOf,
  type UserFormValues,
  userFormFields,
  userToForm,
  validateUserForm,
} from './userForm.js';

interface UserFormDialogProps {
  /** The user to edit; null to create one. */
  user: UserView | null;
  groups: UserGroupView[];
  onClose(): void;
  onSaved(user: UserView, created: boolean): void;
}

/** Enabled groups, plus the current one even if it has been disabled since. */
function GroupOptions(groups: UserGroupView[], current: string) {
  const usable = groups.filter((group) => group.enable || group.symbol === current);
  if (current && !usable.some((group) => group.symbol === current)) {
    usable.unshift({ symbol: current, name: current, enable: false } as UserGroupView);
  }
  return usable;
}

function PasswordField({ hint, label }: { hint: string; label: string }) {
  const { t } = useTranslation('user');
  const [shown, setShown] = useState(false);
  return (
    <FormTextField<UserFormValues>
      name="password"
      type={shown ? 'text' : 'password'}
      label={label}
      hint={hint}
      autoComplete="new-password"
      slotProps={{
        htmlInput: { 'data-testid': 'user-form-password' },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                edge="end"
                onClick={() => setShown((current) => !current)}
                aria-label={shown ? t('form.hidePassword') : t('form.showPassword')}
              >
                {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** Where the caller's own row points for what the admin route refuses it. */
function OwnAccountHint() {
  const { t } = useTranslation('user');
  return (
    <Typography variant="body2" color="text.secondary" data-testid="user-form-own-hint">
      {t('form.ownPasswordHint')}{' '}
      <Link component={RouterLink} to="/panel/profile" data-testid="user-form-profile-link">
        {t('form.ownPasswordLink')}
      </Link>
    </Typography>
  );
}

function UserForm({ user, groups, onClose, onSaved }: UserFormDialogProps) {
  const { t } = useTranslation('user');
  const buttons = useWords('user', 'formDialog');
  const groupName = useGroupName();
  const fields = userFormFields(user, useSession().user?.id);
  const own = fields.password === 'profile';
  // Budget money is typed in the unit of every quota field: US$ when the site shows currency.
  const unit = quotaUnitOf(useSiteInfo());
  const form = useCheckedForm(
    () => (user ? userToForm(user, unit) : emptyUserForm()),
    (values) => validateUserForm(values, user?.id ?? null, (key, options) => t(key, options), own, unit),
  );
  const save = useSaveUser();
  const saving = save.isPending;
  const creating = user === null;

  const options = GroupOptions(groups, form.watch('group'));
  return (
    <CheckedDialogForm
      form={form}
      onValid={saveWith(form, save, formFieldOf, (saved) => onSaved(saved, creating))}
      title={creating ? t('form.createTitle') : t('form.editTitle', { name: user.username })}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('user-form', creating, buttons)}
    >
      <Stack spacing={2.5} sx={{ pt: 0.5 }}>
        <FormProblem testId="user-form-error" />
        <FormTextField<UserFormValues>
          name="username"
          label={t('form.username')}
          hint={
            creating
              ? t('form.usernameHint', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH })
              : t('form.usernameFixed')
          }
          disabled={!creating}
          required={creating}
          autoFocus={creating}
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'user-form-username' } }}
        />
        {fields.password === 'create' && (
          <PasswordField label={t('form.password')} hint={t('form.passwordHint', { min: PASSWORD_MIN_LENGTH })} />
        )}
        <FormTextField<UserFormValues>
          name="displayName"
          label={t('form.displayName')}
          hint={t('form.displayNameHint', { max: DISPLAY_NAME_MAX_LENGTH })}
          autoFocus={!creating}
          slotProps={{ htmlInput: { 'data-testid': 'user-form-display-name' } }}
        />
        <FormTextField<UserFormValues>
          select
          name="group"
          label={t('form.group')}
          hint={own ? t('form.ownGroupHint') : t('form.groupHint')}
          disabled={!fields.groupEditable}
          required
          slotProps={{
            select: {
              renderValue: (symbol) => {
                const group = options.find((option) => option.symbol === symbol);
                return groupName(group, String(symbol));
              },
              MenuProps: { slotProps: { list: { dense: true } } },
              SelectDisplayProps: { 'data-testid': 'user-form-group' } as object,
            },
            htmlInput: { 'data-testid': 'user-form-group-value' },
          }}
        >
          {options.map((group) => (
            <MenuItem
              key={group.symbol}
              value={group.symbol}
              disabled={!group.enable}
              data-testid={`user-form-group-${group.symbol}`}
            >
              <ListItemText
                primary={groupName(group)}
                secondary={
                  group.enable
                    ? t('form.groupOption', { symbol: group.symbol, ratio: group.ratio })
                    : t('form.groupDisabled', { symbol: group.symbol })
                }
              />
            </MenuItem>
          ))}
        </FormTextField>
        {fields.password === 'profile' && <OwnAccountHint />}
        {fields.password === 'change' && (
          <PasswordField label={t('form.newPassword')} hint={t('form.newPasswordHint', { min: PASSWORD_MIN_LENGTH })} />
        )}
        <UserBudgetSection userId={user?.id ?? null} editable={fields.groupEditable} />
      </Stack>
    </CheckedDialogForm>
  );
}

/**
 * Create a user (username, password, display name, group) or edit one (display name, group and
 * optionally a new password; on the caller's own row the display name only). `session` changes
 * on every opening, so the form starts afresh.
 */
export const UserFormDialog = sessionFormDialog(UserForm, { testId: 'user-dialog', maxWidth: 'sm' });
