import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import StopRounded from '@mui/icons-material/StopRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface ChatComposerProps {
  value: string;
  onChange(value: string): void;
  onSend(): void;
  onStop(): void;
  busy: boolean;
  disabled: boolean;
  model: string;
}

/** The message box: Enter sends, Shift+Enter breaks the line; while an answer streams, Stop replaces Send. */
export function ChatComposer({ value, onChange, onSend, onStop, busy, disabled, model }: ChatComposerProps) {
  const { t } = useTranslation('playground');
  const canSend = !busy && !disabled && value.trim() !== '';
  const input = useRef<HTMLTextAreaElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    // Enter inside an input-method composition (Chinese, Japanese) confirms the text; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-end',
          gap: 1,
          pl: 2,
          pr: 1,
          py: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: '14px',
          bgcolor: 'background.paper',
          transition: 'border-color 120ms, box-shadow 120ms',
          '&:focus-within': {
            borderColor: 'primary.main',
            boxShadow: (theme) => `0 0 0 3px ${theme.palette.action.focus}`,
          },
        }}
      >
        <InputBase
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={model ? t('placeholder', { model }) : t('placeholderNoModel')}
          multiline
          maxRows={8}
          fullWidth
          disabled={disabled}
          sx={{ py: 0.75, lineHeight: 1.6 }}
          inputRef={input}
          inputProps={{ 'data-testid': 'playground-input', 'aria-label': t('message') }}
        />
        {busy ? (
          <Tooltip title={t('stop')}>
            <IconButton
              onClick={() => {
                onStop();
                input.current?.focus();
              }}
              aria-label={t('stop')}
              data-testid="playground-stop"
              sx={{
                bgcolor: 'text.primary',
                color: 'background.paper',
                '&:hover': { bgcolor: 'text.secondary' },
              }}
            >
              <StopRounded />
            </IconButton>
          </Tooltip>
        ) : (
          <Tooltip title={t('send')}>
            <span>
              <IconButton
                onClick={onSend}
                disabled={!canSend}
                aria-label={t('send')}
                data-testid="playground-send"
                sx={{
                  bgcolor: 'primary.main',
                  color: 'primary.contrastText',
                  '&:hover': { bgcolor: 'primary.dark' },
                  '&.Mui-disabled': { bgcolor: 'action.disabledBackground', color: 'action.disabled' },
                }}
              >
                <ArrowUpwardRounded />
              </IconButton>
            </span>
          </Tooltip>
        )}
      </Box>
      <Typography
        variant="caption"
        component="p"
        sx={{ color: 'text.secondary', textAlign: 'center', mt: 0.75, display: { xs: 'none', sm: 'block' } }}
      >
        {t('keyboardHint')}
      </Typography>
    </Box>
  );
}
