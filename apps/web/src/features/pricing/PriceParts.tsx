import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { PriceType, PriceView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { OwnerAvatar } from '../../components/OwnerAvatar.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { formatPriceUsd, formatRatio, type OwnerOption, usdPrice } from './priceTable.js';

// The owner form dialog still imports the avatar from here; it moves to the shared one when the form is rebuilt.
export { OwnerAvatar };

/** An owner by id, with its name when known and `#id` otherwise. */
export function OwnerLabel({
  id,
  owners,
  testId,
}: {
  id: number;
  owners: ReadonlyMap<number, OwnerOption>;
  testId?: string;
}) {
  const { t } = useTranslation('pricing');
  const owner = owners.get(id);
  const name = owner?.name ?? t('unknownOwner', { id });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <OwnerAvatar name={owner?.name ?? '?'} icon={owner?.icon} />
      <Typography variant="body2" noWrap data-testid={testId} sx={{ color: owner ? 'text.primary' : 'text.secondary' }}>
        {name}
      </Typography>
    </Stack>
  );
}

export function ModelText({ model, locked, testId }: { model: string; locked?: boolean; testId?: string }) {
  const { t } = useTranslation('pricing');
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography
        component="span"
        data-testid={testId}
        sx={{ fontFamily: monospaceFontStack, fontSize: '0.85rem', fontWeight: 600, overflowWrap: 'anywhere' }}
      >
        {model}
      </Typography>
      {locked && (
        <Tooltip title={t('lockedHint')}>
          <LockOutlined sx={{ fontSize: 16, color: 'warning.main', flexShrink: 0 }} aria-label={t('lockedHint')} />
        </Tooltip>
      )}
    </Stack>
  );
}

export function TypeChip({ type, testId }: { type: PriceType; testId?: string }) {
  const { t } = useTranslation('pricing');
  return (
    <Chip
      size="small"
      variant="outlined"
      color={type === 'times' ? 'secondary' : 'primary'}
      label={t(`type.${type}`)}
      data-testid={testId}
      sx={{ fontWeight: 600 }}
    />
  );
}

/**
 * One side of a price: the multiplier in bold, the dollar figures under it (per 1K and 1M tokens,
 * or per call). `side` picks input or output; a `times` price has no output.
 */
export function PriceFigures({
  price,
  side,
  testId,
}: {
  price: Pick<PriceView, 'type' | 'input' | 'output'>;
  side: 'input' | 'output';
  testId?: string;
}) {
  const { t } = useTranslation('pricing');
  const usd = usdPrice(price);
  if (usd.type === 'times' && side === 'output') {
    return (
      <Typography variant="body2" sx={{ color: 'text.disabled' }} data-testid={testId}>
        —
      </Typography>
    );
  }
  const ratio = side === 'input' ? price.input : price.output;
  return (
    <Box data-testid={testId} sx={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.35, whiteSpace: 'nowrap' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid={testId && `${testId}-ratio`}>
        {t('ratio', { value: formatRatio(ratio) })}
      </Typography>
      {usd.type === 'times' ? (
        <Typography
          variant="caption"
          component="p"
          sx={{ color: 'text.secondary' }}
          data-testid={testId && `${testId}-per-call`}
        >
          {t('perCall', { price: formatPriceUsd(usd.perCall) })}
        </Typography>
      ) : (
        <>
          <Typography
            variant="caption"
            component="p"
            sx={{ color: 'text.secondary' }}
            data-testid={testId && `${testId}-per-1k`}
          >
            {t('perThousand', { price: formatPriceUsd(usd[side].perThousand) })}
          </Typography>
          <Typography
            variant="caption"
            component="p"
            sx={{ color: 'text.secondary' }}
            data-testid={testId && `${testId}-per-1m`}
          >
            {t('perMillion', { price: formatPriceUsd(usd[side].perMillion) })}
          </Typography>
        </>
      )}
    </Box>
  );
}
