import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { OptionKey } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { splitDomains } from './fieldValues.js';
import { ChangedLabel, optionInputData, useOptionField } from './useOptionField.js';

/** A comma-separated list of e-mail domains, edited as chips (Enter, comma or leaving the field adds one). */
export function DomainsField({ name }: { name: OptionKey }) {
  const { t } = useTranslation('setting');
  const field = useOptionField(name);
  const [input, setInput] = useState('');
  const domains = splitDomains(field.value);
  const write = (list: string[]) => field.edit(splitDomains(list.join(',')).join(','));

  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      options={[] as string[]}
      value={domains}
      onChange={(_event, list) => write(list)}
      inputValue={input}
      onInputChange={(_event, text, reason) => {
        // A pasted or typed list becomes chips at its commas.
        if (reason === 'input' && /[,，\s]/.test(text)) {
          write([...domains, text]);
          setInput('');
        } else setInput(text);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={<ChangedLabel label={field.label} changed={field.changed} />}
          placeholder={domains.length === 0 ? t('domains.placeholder') : undefined}
          error={field.invalid}
          helperText={field.errorText ?? field.help}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, ...optionInputData(field) },
          }}
        />
      )}
    />
  );
}
