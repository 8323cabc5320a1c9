import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BUDGET_PERIODS } from '@one-hub/contracts';
import { useContext } from 'react';
import { type FieldValues, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import { AddRowBar, messageAt, RemoveRowButton } from '../form/EditableRows.js';
import { FormSaving, FormTextField } from '../form/FormFields.js';
import { type BudgetRow, nextBudgetRow, ROW_MESSAGE } from './budgetRows.js';

interface BudgetsEditorProps {
  /** The form field holding the rows (`BudgetRow[]`). */
  name?: string;
  /** Prefix of the test ids: `<testId>-add`, `<testId>-0-quota`, … */
  testId: string;
  /** Under the rows; says what the budgets apply to. */
  hint?: string;
}

/**
 * Windows of a budget list in a form (a key's, a user's, a group's or a plan's): one row per
 * window with its period and any of money, requests and tokens; a period appears once. The form's
 * check (`checkBudgetRows`) puts its messages under `<name>.<row>.<field>` and `<name>`.
 */
export function BudgetsEditor({ name = 'budgets', testId, hint }: BudgetsEditorProps) {
  const { t } = useTranslation('budget');
  const { control, clearErrors, formState } = useFormContext<FieldValues>();
  const { fields, append, remove } = useFieldArray({ control, name });
  const rows = (useWatch({ control, name }) as BudgetRow[] | undefined) ?? [];
  const saving = useContext(FormSaving);
  const unit = quotaUnitOf(useSiteInfo());
  const next = nextBudgetRow(rows);
  const listMessage = messageAt(formState.errors, name);

  return (
    <Stack spacing={1.5} data-testid={testId}>
      {fields.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={`${testId}-none`}>
          {t('editor.none')}
        </Typography>
      )}
      {fields.map((field, index) => {
        const at = `${name}.${index}`;
        const rowMessage = messageAt(formState.errors, `${at}.${ROW_MESSAGE}`);
        // A change anywhere in the row may fill the allowance the row's message asked for.
        const clears = [`${at}.${ROW_MESSAGE}`];
        const taken = new Set(rows.filter((_row, other) => other !== index).map((row) => row.period));
        return (
          <Box key={field.id} data-testid={`${testId}-row-${index}`}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <FormTextField<FieldValues>
                select
                size="small"
                name={`${at}.period`}
                clears={clears}
                label={t('editor.period')}
                sx={{ minWidth: 120 }}
                slotProps={{ select: { SelectDisplayProps: { 'data-testid': `${testId}-${index}-period` } as object } }}
              >
                {BUDGET_PERIODS.map((period) => (
                  <MenuItem
                    key={period}
                    value={period}
                    disabled={taken.has(period)}
                    data-testid={`${testId}-${index}-period-${period}`}
                  >
                    {t(`periods.${period}`)}
                  </MenuItem>
                ))}
              </FormTextField>
              <FormTextField<FieldValues>
                size="small"
                name={`${at}.quota`}
                clears={clears}
                label={unit.currency ? t('editor.quotaCurrency') : t('editor.quota')}
                slotProps={{
                  htmlInput: { inputMode: 'decimal', 'data-testid': `${testId}-${index}-quota` },
                  input: unit.currency ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : {},
                }}
              />
              <FormTextField<FieldValues>
                size="small"
                name={`${at}.requests`}
                clears={clears}
                label={t('editor.requests')}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testId}-${index}-requests` } }}
              />
              <FormTextField<FieldValues>
                size="small"
                name={`${at}.tokens`}
                clears={clears}
                label={t('editor.tokens')}
                slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `${testId}-${index}-tokens` } }}
              />
              <RemoveRowButton
                label={t('editor.remove')}
                onClick={() => {
                  remove(index);
                  clearErrors(name);
                }}
                disabled={saving}
                testId={`${testId}-${index}-remove`}
              />
            </Stack>
            {rowMessage && (
              <FormHelperText error data-testid={`${testId}-${index}-error`}>
                {rowMessage}
              </FormHelperText>
            )}
          </Box>
        );
      })}
      <AddRowBar
        label={t('editor.add')}
        onClick={() => {
          if (next) append(next);
          clearErrors(name);
        }}
        disabled={saving || next === null}
        testId={testId}
        hint={hint ?? t('editor.hint')}
        message={listMessage}
      />
    </Stack>
  );
}
