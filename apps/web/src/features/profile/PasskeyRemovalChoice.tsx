import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { usePasskeys } from '../../hooks/usePasskeys.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { formatTime } from '../../lib/format.js';

/**
 * With a new password: the account's passkeys, each with a box to remove it in the same step.
 * Passkeys sign in without the password, so one someone else added would survive the change.
 * Shows nothing when the account has none.
 */
export function PasskeyRemovalChoice(props: { selected: number[]; onChange(ids: number[]): void; disabled?: boolean }) {
  const { t } = useTranslation('profile');
  const passkeys = usePasskeys(useSiteInfo().passkey_login);
  const items = passkeys.data ?? [];
  if (items.length === 0) return null;
  const toggle = (id: number, checked: boolean) =>
    props.onChange(checked ? [...props.selected, id] : props.selected.filter((selected) => selected !== id));
  return (
    <FormGroup data-testid="password-passkeys">
      <Typography variant="subtitle2">{t('passkeyRemoval.title')}</Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {t('passkeyRemoval.description')}
      </Typography>
      {items.map((item) => (
        <FormControlLabel
          key={item.id}
          label={t('passkeyRemoval.item', { alias: item.alias, time: formatTime(item.created_time) })}
          control={
            <Checkbox
              checked={props.selected.includes(item.id)}
              onChange={(event) => toggle(item.id, event.target.checked)}
              disabled={props.disabled}
              slotProps={{ input: { 'data-testid': `password-passkey-${item.id}` } as object }}
            />
          }
        />
      ))}
    </FormGroup>
  );
}
