import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ChannelView } from '@one-hub/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monospace } from './ChannelCells.js';
import { ModelCheckCard } from './ChannelCheckResult.js';
import { testableModels } from './channelForm.js';
import { type ChannelCheckRun, useChannelCheck } from './useChannelCheck.js';

interface ChannelCheckDialogProps {
  channel: ChannelView;
  open: boolean;
  onClose(): void;
}

interface ModelPickerProps {
  models: string[];
  chosen: ReadonlySet<string>;
  onChange(chosen: Set<string>): void;
  disabled: boolean;
}

/** The channel's models as checkboxes, with one box for all of them. */
function ModelPicker({ models, chosen, onChange, disabled }: ModelPickerProps) {
  const { t } = useTranslation('channel');
  const all = models.length > 0 && chosen.size === models.length;
  const toggle = (model: string) => {
    const next = new Set(chosen);
    if (next.has(model)) next.delete(model);
    else next.add(model);
    onChange(next);
  };
  return (
    <Box>
      <FormControlLabel
        disabled={disabled}
        label={t('check.allModels', { count: chosen.size, total: models.length })}
        control={
          <Checkbox
            size="small"
            checked={all}
            indeterminate={chosen.size > 0 && !all}
            onChange={(_event, checked) => onChange(new Set(checked ? models : []))}
            slotProps={{ input: { 'data-testid': 'channel-check-all' } as object }}
          />
        }
      />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
          maxHeight: 180,
          overflow: 'auto',
          pl: 1.5,
        }}
      >
        {models.map((model) => (
          <FormControlLabel
            key={model}
            disabled={disabled}
            sx={{ minWidth: 0, mr: 0 }}
            label={
              <Typography variant="body2" noWrap title={model} sx={{ fontFamily: monospace }}>
                {model}
              </Typography>
            }
            control={
              <Checkbox
                size="small"
                checked={chosen.has(model)}
                onChange={() => toggle(model)}
                slotProps={{ input: { 'data-testid': `channel-check-pick-${model}` } as object }}
              />
            }
          />
        ))}
      </Box>
    </Box>
  );
}

/** Where the run stands: a bar while it runs, then how it ended. */
function CheckProgress({ run }: { run: ChannelCheckRun }) {
  const { t } = useTranslation('channel');
  if (run.phase === 'idle') return null;
  const done = run.results.length;
  return (
    <Stack spacing={0.75}>
      <Typography variant="body2" data-testid="channel-check-progress" data-phase={run.phase}>
        {t(`check.phase.${run.phase}`, { done, total: run.total })}
      </Typography>
      {run.phase === 'running' && (
        <LinearProgress
          variant={done === 0 ? 'indeterminate' : 'determinate'}
          value={run.total ? (done / run.total) * 100 : 0}
        />
      )}
      {run.error && (
        <Alert severity="error" data-testid="channel-check-error">
          {run.error}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * Checks a channel's models with a few probes each (`POST /api/sse/channel/check`) and shows each
 * model's verdicts as they stream in. Nothing is billed and the channel's status is left alone.
 */
export function ChannelCheckDialog({ channel, open, onClose }: ChannelCheckDialogProps) {
  const { t } = useTranslation('channel');
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const models = testableModels(channel);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(models));
  const run = useChannelCheck();
  const { reset } = run;
  const running = run.phase === 'running';

  // Every opening starts from all of the channel's models and no results.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an opening resets the choice
  useEffect(() => {
    if (!open) return;
    setChosen(new Set(testableModels(channel)));
    reset();
  }, [open, reset]);

  const close = () => {
    reset();
    onClose();
  };
  const start = () =>
    run.start(
      channel.id,
      models.filter((model) => chosen.has(model)),
    );

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      scroll="paper"
      data-testid="channel-check-dialog"
    >
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('check.title', { name: channel.name })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <DialogContentText variant="body2">{t('check.description')}</DialogContentText>
          {models.length === 0 ? (
            <Alert severity="info" data-testid="channel-check-no-models">
              {t('check.noModels')}
            </Alert>
          ) : (
            <ModelPicker models={models} chosen={chosen} onChange={setChosen} disabled={running} />
          )}
          <CheckProgress run={run} />
          <Stack spacing={1.5} data-testid="channel-check-results">
            {run.results.map((check) => (
              <ModelCheckCard key={check.model} check={check} />
            ))}
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button color="inherit" onClick={close} data-testid="channel-check-close">
          {t('check.close')}
        </Button>
        {running ? (
          <Button variant="outlined" color="error" onClick={run.stop} data-testid="channel-check-stop">
            {t('check.stop')}
          </Button>
        ) : (
          <Button variant="contained" onClick={start} disabled={chosen.size === 0} data-testid="channel-check-start">
            {run.phase === 'idle' ? t('check.start') : t('check.again')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
