import SyncOutlined from '@mui/icons-material/SyncOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { APPLY_MODES, type ApplyMode, type expectedEffect } from './priceCheck.js';

interface ApplyCardProps {
  mode: ApplyMode;
  onMode(mode: ApplyMode): void;
  /** What applying the list in this mode would add, update and remove. */
  effect: ReturnType<typeof expectedEffect>;
  /** Locked prices, which no mode changes. */
  locked: number;
  busy: boolean;
  onApply(): void;
}

/** How to apply the compared price list, what that would change, and the button that does it. */
export function ApplyCard({ mode, onMode, effect, locked, busy, onApply }: ApplyCardProps) {
  const { t } = useTranslation('pricing');
  return (
    <SectionCard
      icon={<SyncOutlined />}
      title={t('check.applyTitle')}
      subtitle={t('check.applySubtitle')}
      fill="none"
      testId="pricing-check-apply-card"
    >
      <Stack spacing={2}>
        <RadioGroup value={mode} onChange={(event) => onMode(event.target.value as ApplyMode)}>
          {APPLY_MODES.map((option) => (
            <FormControlLabel
              key={option}
              value={option}
              control={<Radio slotProps={{ input: { 'data-testid': `pricing-check-mode-${option}` } as object }} />}
              sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { mt: -0.75 } }}
              label={
                <Box>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {t(`check.modes.${option}`)}
                  </Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {t(`check.modeHints.${option}`)}
                  </Typography>
                </Box>
              }
            />
          ))}
        </RadioGroup>
        <Alert severity={mode === 'overwrite' ? 'warning' : 'info'} data-testid="pricing-check-effect">
          {t('check.effect', {
            add: effect.add,
            update: effect.update,
            remove: effect.remove,
            locked,
          })}
        </Alert>
        <Box>
          <Button
            variant="contained"
            color={mode === 'overwrite' ? 'warning' : 'primary'}
            startIcon={<SyncOutlined />}
            loading={busy}
            onClick={onApply}
            data-testid="pricing-check-apply"
          >
            {t('check.apply', { mode: t(`check.modes.${mode}`) })}
          </Button>
        </Box>
      </Stack>
    </SectionCard>
  );
}
