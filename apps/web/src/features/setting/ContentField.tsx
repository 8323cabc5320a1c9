import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { OptionKey } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../components/Markdown.js';
import { RichContent } from '../../components/RichContent.js';
import { richContentKind } from '../../lib/richContent.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { ChangedLabel, optionInputData, optionTextProps, useOptionField } from './useOptionField.js';

interface ContentFieldProps {
  name: OptionKey;
  /** `markdown`: shown as markdown (the notice); `rich`: markdown, HTML or a URL to embed. */
  mode: 'markdown' | 'rich';
}

/** Long content with a write/preview switch; the preview renders it the way visitors will see it. */
export function ContentField({ name, mode }: ContentFieldProps) {
  const { t } = useTranslation('setting');
  const field = useOptionField(name);
  const [view, setView] = useState<'write' | 'preview'>('write');
  const kind = richContentKind(field.value);
  const empty = field.value.trim() === '';

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Typography variant="subtitle2" component="span">
            <ChangedLabel label={field.label} changed={field.changed} />
          </Typography>
          {mode === 'rich' && !empty && (
            <Chip
              size="small"
              variant="outlined"
              label={t(`content.kind.${kind}`)}
              data-testid={`setting-kind-${name}`}
            />
          )}
        </Stack>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_event, next: 'write' | 'preview' | null) => next && setView(next)}
          aria-label={t('content.view', { field: field.label })}
        >
          <ToggleButton value="write" data-testid={`setting-write-${name}`} sx={{ px: 1.5, py: 0.25 }}>
            {t('content.write')}
          </ToggleButton>
          <ToggleButton value="preview" data-testid={`setting-preview-${name}`} sx={{ px: 1.5, py: 0.25 }}>
            {t('content.preview')}
          </ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {view === 'write' ? (
        <TextField
          fullWidth
          multiline
          minRows={6}
          maxRows={20}
          {...optionTextProps(field)}
          slotProps={{
            htmlInput: {
              'aria-label': field.label,
              ...optionInputData(field),
              style: { fontFamily: monospaceFontStack, fontSize: '0.8125rem' },
            },
          }}
        />
      ) : (
        <>
          <Box
            data-testid={`setting-preview-box-${name}`}
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 2,
              minHeight: 160,
              maxHeight: 480,
              overflow: 'auto',
              bgcolor: 'background.default',
            }}
          >
            {empty ? (
              <Typography sx={{ color: 'text.secondary' }}>{t('content.empty')}</Typography>
            ) : mode === 'markdown' ? (
              <Markdown>{field.value}</Markdown>
            ) : (
              <RichContent content={field.value} allowHtml />
            )}
          </Box>
          <FormHelperText>{field.help}</FormHelperText>
        </>
      )}
    </Box>
  );
}
