import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TelegramMenuView } from '@one-hub/contracts';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from '../../components/FormDialog.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { bindTextFields } from '../../components/form/fieldBinding.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useFormState } from '../../hooks/useFormState.js';
import { describeError } from '../../lib/notify.js';
import { useSaveTelegramMenu } from './telegram.api.js';
import {
  DESCRIPTION_MAX_LENGTH,
  emptyTelegramForm,
  fieldOfServerMessage,
  PARSE_MODES,
  type ParseMode,
  parseModeKey,
  type TelegramFormField,
  type TelegramFormValues,
  telegramMenuToForm,
  validateTelegramForm,
} from './telegramForm.js';

const monospace = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

interface TelegramMenuFormProps {
  /** The command to edit; null to create one. */
  menu: TelegramMenuView | null;
  onClose(): void;
  onSaved(menu: TelegramMenuView, created: boolean): void;
}

function TelegramMenuForm({ menu, onClose, onSaved }: TelegramMenuFormProps) {
  const { t } = useTranslation('telegram');
  const form = useFormState<TelegramFormValues, TelegramFormField>(() =>
    menu ? telegramMenuToForm(menu) : emptyTelegramForm(),
  );
  const { values } = form;
  const save = useSaveTelegramMenu();
  const saving = save.isPending;
  const creating = menu === null;
  const bind = bindTextFields({ ...form, disabled: saving });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.accept(validateTelegramForm(values, menu?.id ?? null, (key, options) => t(key, options)));
    if (!body) return;
    save.mutate(body, {
      onSuccess: (saved) => onSaved(saved, creating),
      onError: (error) => {
        const field = fieldOfServerMessage(error instanceof Error ? error.message : '');
        if (field) form.setErrors((current) => ({ ...current, [field]: describeError(error) }));
        else form.setUnplaced([describeError(error)]);
      },
    });
  };

  return (
    <DialogForm
      onSubmit={submit}
      testId="telegram-form"
      title={creating ? t('form.createTitle') : t('form.editTitle', { command: menu.command })}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={creating ? t('form.create') : t('form.save')}
      cancelTestId="telegram-form-cancel"
      submitTestId="telegram-form-submit"
    >
      <Stack spacing={2.5}>
        <FormProblem unplaced={form.unplaced} testId="telegram-form-error" />
        <TextField
          name="command"
          label={t('form.command')}
          {...bind('command', t('form.commandHint'))}
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
        <TextField
          name="description"
          label={t('form.description')}
          {...bind('description', t('form.descriptionHint'))}
          required
          slotProps={{
            htmlInput: { 'data-testid': 'telegram-form-description', maxLength: DESCRIPTION_MAX_LENGTH },
          }}
        />
        <TextField
          select
          name="parse_mode"
          label={t('form.parseMode')}
          value={values.parseMode}
          onChange={(event) => form.change('parseMode', event.target.value as ParseMode)}
          error={Boolean(form.errors.parseMode)}
          helperText={form.errors.parseMode ?? t('form.parseModeHint')}
          disabled={saving}
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
        </TextField>
        <TextField
          name="reply_message"
          label={t('form.reply')}
          {...bind('reply', t('form.replyHint'))}
          required
          multiline
          minRows={4}
          maxRows={12}
          slotProps={{ htmlInput: { 'data-testid': 'telegram-form-reply', spellCheck: false } }}
        />
      </Stack>
    </DialogForm>
  );
}

/** Create or edit a custom command of the bot. */
export const TelegramMenuFormDialog = sessionFormDialog(TelegramMenuForm, { testId: 'telegram-dialog' });
