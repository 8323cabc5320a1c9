import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { PriceType, UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useGroupName } from '../../hooks/useGroupName.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import { formatUsd } from '../../lib/format.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import type { DisplayPrice, TokenPrice } from './pricing.js';

export function ModelName({ model }: { model: string }) {
  const { t } = useTranslation('modelPrice');
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography
        component="span"
        data-testid="model-price-name"
        sx={{ fontFamily: monospaceFontStack, fontSize: '0.875rem', fontWeight: 600, overflowWrap: 'anywhere' }}
      >
        {model}
      </Typography>
      <Tooltip title={t('copyModel')}>
        <IconButton
          size="small"
          aria-label={t('copyModelNamed', { model })}
          data-testid="model-price-copy"
          onClick={() => void copyToClipboard(model, t('modelName'))}
          sx={{ color: 'text.secondary', flexShrink: 0 }}
        >
          <ContentCopyRounded sx={{ fontSize: 16 }} />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

export function TypeChip({ type }: { type: PriceType }) {
  const { t } = useTranslation('modelPrice');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={type === 'times' ? 'secondary' : 'primary'}
      label={type === 'times' ? t('type.times') : t('type.tokens')}
      data-testid="model-price-type"
      sx={{ fontWeight: 600 }}
    />
  );
}

function FreeChip() {
  const { t } = useTranslation('modelPrice');
  return <Chip size="small" color="success" variant="outlined" label={t('free')} sx={{ fontWeight: 600 }} />;
}

/** A token price on two lines: per 1K tokens first, per 1M tokens below it. */
export function TokenPriceText({ price, testId }: { price: TokenPrice; testId: string }) {
  const { t } = useTranslation('modelPrice');
  if (price.perMillion === 0) {
    return (
      <Box data-testid={testId}>
        <FreeChip />
      </Box>
    );
  }
  return (
    <Box data-testid={testId} sx={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.4, whiteSpace: 'nowrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('perThousand', { price: formatUsd(price.perThousand) })}
      </Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {t('perMillion', { price: formatUsd(price.perMillion) })}
      </Typography>
    </Box>
  );
}

export function PerCallText({ price, testId }: { price: Extract<DisplayPrice, { type: 'times' }>; testId: string }) {
  const { t } = useTranslation('modelPrice');
  if (price.perCall === 0) {
    return (
      <Box data-testid={testId}>
        <FreeChip />
      </Box>
    );
  }
  return (
    <Box data-testid={testId} sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('perCall', { price: formatUsd(price.perCall) })}
      </Typography>
    </Box>
  );
}

/** The groups offering a model; the one prices are shown for stands out. */
export function GroupChips({
  groups,
  selected,
  groupMap,
}: {
  groups: string[];
  selected: string;
  groupMap: Record<string, UserGroupView> | undefined;
}) {
  const groupName = useGroupName();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {groups.map((symbol) => (
        <Chip
          key={symbol}
          size="small"
          label={groupName(groupMap?.[symbol], symbol)}
          color={symbol === selected ? 'primary' : 'default'}
          variant={symbol === selected ? 'filled' : 'outlined'}
        />
      ))}
    </Stack>
  );
}
