import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monospace, toneChip } from './ChannelCells.js';
import {
  type CheckOutcome,
  type CheckProcess,
  type ModelCheck,
  modelOutcome,
  outcomeOf,
  tallyChecks,
} from './channelCheck.js';

const outcomeTones = { passed: 'success', failed: 'error', unknown: 'warning' } as const;

function OutcomeChip({ outcome, testId }: { outcome: CheckOutcome; testId?: string }) {
  const { t } = useTranslation('channel');
  return (
    <Chip
      size="small"
      label={t(`check.outcome.${outcome}`)}
      data-testid={testId}
      data-outcome={outcome}
      sx={(theme) => ({ ...toneChip(theme, outcomeTones[outcome]), flexShrink: 0, minWidth: 64 })}
    />
  );
}

/** One probe: a chip and remark per verdict, and the upstream's raw answer behind a toggle. */
function ProbeStep({ step }: { step: CheckProcess }) {
  const { t } = useTranslation('channel');
  const [open, setOpen] = useState(false);
  return (
    <Box data-testid="channel-check-step" data-step={step.name}>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {t(`check.probe.${step.name}`, { defaultValue: step.name })}
      </Typography>
      <Stack spacing={0.5}>
        {step.results.map((result, index) => (
          <Stack
            // Verdicts have no id; their order within a step never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'flex-start' }}
            data-testid="channel-check-result"
            data-status={result.status}
          >
            <OutcomeChip outcome={outcomeOf(result.status)} />
            <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere', pt: 0.125 }}>
              <Box component="span" sx={{ fontFamily: monospace, fontWeight: 600, mr: 0.75 }}>
                {result.name}
              </Box>
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {result.remark}
              </Box>
            </Typography>
          </Stack>
        ))}
      </Stack>
      {step.response && (
        <>
          <Button
            size="small"
            color="inherit"
            onClick={() => setOpen((shown) => !shown)}
            aria-expanded={open}
            endIcon={<ExpandMore sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }} />}
            sx={{ mt: 0.5, color: 'text.secondary' }}
            data-testid="channel-check-response-toggle"
          >
            {open ? t('check.hideResponse') : t('check.showResponse')}
          </Button>
          <Collapse in={open} unmountOnExit>
            <Box
              component="pre"
              data-testid="channel-check-response"
              sx={{
                m: 0,
                mt: 0.5,
                p: 1,
                maxHeight: 220,
                overflow: 'auto',
                borderRadius: 1,
                bgcolor: 'action.hover',
                fontFamily: monospace,
                fontSize: '0.75rem',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {step.response}
            </Box>
          </Collapse>
        </>
      )}
    </Box>
  );
}

/** One model's check: its overall verdict, the tally, then every probe. */
export function ModelCheckCard({ check }: { check: ModelCheck }) {
  const { t } = useTranslation('channel');
  const tally = tallyChecks(check);
  const outcome = modelOutcome(check);
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid={`channel-check-model-${check.model}`} data-outcome={outcome}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
        <OutcomeChip outcome={outcome} testId={`channel-check-outcome-${check.model}`} />
        <Typography sx={{ fontFamily: monospace, fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          {check.model}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('check.tally', tally)}
        </Typography>
      </Stack>
      <Stack spacing={1.5}>
        {check.process.map((step) => (
          <ProbeStep key={step.name} step={step} />
        ))}
      </Stack>
    </Paper>
  );
}
