import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import type { TelegramMenuView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { saveWith, useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useWords } from '../../i18n/useWords.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { useSaveTelegramMenu } from './telegram.api.js';
import {
  DESCRIPTION_MAX_LENGTH,
  emptyTelegramForm,
  formFieldOf,
  PARSE_MODES,
  parseModeKey,
  type TelegramFormValues,
  telegramMenuToForm,
  validateTelegramForm,
} from './telegramForm.js';

const monospace = monospaceFontStack;

interface TelegramMenuFormProps {
  /** The command to edit; null to create one. */
  menu: TelegramMenuView | null;
  onClose(): void;
  onSaved(menu: TelegramMenuView, created: boolean): void;
}

function TelegramMenuForm({ menu, onClose, onSaved }: TelegramMenuFormProps) {
  const { t } = useTranslation('telegram');
  const buttons = useWords('telegram', 'formDialog');
  const form = useCheckedForm(
    () => (menu ? telegramMenuToForm(menu) : emptyTelegramForm()),
    (values) => validateTelegramForm(values, menu?.id ?? null, (key, options) => t(key, options)),
  );
  const save = useSaveTelegramMenu();
  const saving = save.isPending;
  const creating = menu === null;

  return (
    <CheckedDialogForm
      form={form}
      onValid={saveWith(form, save, formFieldOf, (saved) => onSaved(saved, creating))}
      title={creating ? t('form.createTitle') : t('form.editTitle', { command: menu.command })}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('telegram-form', creating, buttons)}
    >
      <Stack spacing={2.5}>
        <FormProblem testId="telegram-form-error" />
        <FormTextField<TelegramFormValues>
          name="command"
          label={t('form.command')}
          hint={t('form.commandHint')}
          required
          autoFocus
          autoComplete="off"
          slotProps={{
            input: {
              startAdornment: <InputAdornment position="start">/</InputAdornment>,
              sx: { fontFamily: monospace },
            },
            htmlInput: { 'data-testid': 'telegram-form-command', maxLength: 33, spellCheck: false },
            formHelperText: { 'data-testid': 'telegram-form-command-helper' } as object,
          }}
        />
        <FormTextField<TelegramFormValues>
          name="description"
          label={t('form.description')}
          hint={t('form.descriptionHint')}
          required
          slotProps={{
            htmlInput: { 'data-testid': 'telegram-form-description', maxLength: DESCRIPTION_MAX_LENGTH },
          }}
        />
        <FormTextField<TelegramFormValues>
          select
          name="parseMode"
          label={t('form.parseMode')}
          hint={t('form.parseModeHint')}
          required
          slotProps={{
            select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'telegram-form-parse-mode' } as object },
          }}
        >
          {PARSE_MODES.map((mode) => (
            <MenuItem key={mode || 'plain'} value={mode} data-testid={`telegram-parse-mode-${mode || 'plain'}`}>
              {t(parseModeKey(mode))}
            </MenuItem>
          ))}
        </FormTextField>
        <FormTextField<TelegramFormValues>
          name="reply"
          label={t('form.reply')}
          hint={t('form.replyHint')}
          required
          multiline
          minRows={4}
          maxRows={12}
          slotProps={{ htmlInput: { 'data-testid': 'telegram-form-reply', spellCheck: false } }}
        />
      </Stack>
    </CheckedDialogForm>
  );
}

/** Create or edit a custom command of the bot. */
export const TelegramMenuFormDialog = sessionFormDialog(TelegramMenuForm, { testId: 'telegram-dialog' });
