import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LogView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';

/** Token kinds the relay records in a consume log's metadata (count, and `<kind>_ratio`), by side. */
const INPUT_KINDS = [
  'cached_tokens',
  'cached_read_tokens',
  'cached_write_tokens',
  'input_text_tokens',
  'input_audio_tokens',
  'input_image_tokens',
] as const;
const OUTPUT_KINDS = ['reasoning_tokens', 'output_text_tokens', 'output_audio_tokens', 'output_image_tokens'] as const;

/** Passed as a variable: MUI's slot prop types leave out data attributes. */
const breakdownPaper = { sx: { p: 2, minWidth: 240, maxWidth: 320 }, 'data-testid': 'log-breakdown' };

interface Line {
  key: string;
  label: string;
  value: string;
  strong?: boolean;
}

function count(value: unknown): number {
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
}

function Lines({ title, lines }: { title: string; lines: Line[] }) {
  return (
    <Box>
      <Typography variant="overline" sx={{ color: 'text.secondary' }}>
        {title}
      </Typography>
      {lines.map((line) => (
        <Stack
          key={line.key}
          direction="row"
          spacing={3}
          sx={{ justifyContent: 'space-between', py: 0.25 }}
          data-testid={`log-breakdown-${line.key}`}
        >
          <Typography variant="body2" sx={{ color: line.strong ? 'text.primary' : 'text.secondary' }}>
            {line.label}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: line.strong ? 600 : 400, fontVariantNumeric: 'tabular-nums' }}>
            {line.value}
          </Typography>
        </Stack>
      ))}
    </Box>
  );
}

/** Input and output tokens of one request, split by kind (cached, audio, reasoning…), with the ratios billed. */
export function TokenBreakdown({
  log,
  anchor,
  onClose,
}: {
  log: LogView | null;
  anchor: HTMLElement | null;
  onClose(): void;
}) {
  const { t } = useTranslation('log');
  if (!log) return null;
  const { metadata } = log;
  const kindLines = (kinds: readonly string[]): Line[] =>
    kinds
      .filter((kind) => count(metadata[kind]) > 0)
      .map((kind) => {
        const ratio = metadata[`${kind}_ratio`];
        const value = count(metadata[kind]).toLocaleString();
        return {
          key: kind,
          label: t(`breakdown.kinds.${kind}`),
          value: ratio === undefined ? value : t('breakdown.withRatio', { value, ratio }),
        };
      });
  const input: Line[] = [
    { key: 'prompt', label: t('breakdown.totalInput'), value: log.prompt_tokens.toLocaleString(), strong: true },
    ...kindLines(INPUT_KINDS),
  ];
  const output: Line[] = [
    {
      key: 'completion',
      label: t('breakdown.totalOutput'),
      value: log.completion_tokens.toLocaleString(),
      strong: true,
    },
    ...kindLines(OUTPUT_KINDS),
  ];
  const pricing: Line[] = [];
  if (metadata.input_ratio !== undefined) {
    pricing.push({ key: 'input_ratio', label: t('breakdown.inputRatio'), value: String(metadata.input_ratio) });
  }
  if (metadata.output_ratio !== undefined && metadata.price_type !== 'times') {
    pricing.push({ key: 'output_ratio', label: t('breakdown.outputRatio'), value: String(metadata.output_ratio) });
  }
  if (metadata.group_ratio !== undefined) {
    pricing.push({ key: 'group_ratio', label: t('breakdown.groupRatio'), value: String(metadata.group_ratio) });
  }

  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{ paper: breakdownPaper }}
    >
      <Stack spacing={1} divider={<Divider flexItem />}>
        <Lines title={t('breakdown.input')} lines={input} />
        <Lines title={t('breakdown.output')} lines={output} />
        {pricing.length > 0 && <Lines title={t('breakdown.pricing')} lines={pricing} />}
      </Stack>
    </Popover>
  );
}
