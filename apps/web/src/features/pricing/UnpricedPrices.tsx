import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { UnpricedModelsAlert } from '../../components/UnpricedModelsAlert.js';
import { useUnpricedModels } from './pricing.api.js';

/**
 * Above the price list: the models enabled channels bill without a price. Each is a chip that
 * starts "add price" with its name, since that is what the operator looking at it wants next.
 */
export function UnpricedPrices({ onAdd }: { onAdd(model: string): void }) {
  const { t } = useTranslation('pricing');
  const unpriced = useUnpricedModels();
  const models = useMemo(() => (unpriced.data ?? []).map((entry) => entry.model), [unpriced.data]);
  const servedBy = useMemo(
    () =>
      new Map(
        (unpriced.data ?? []).map((entry) => [
          entry.model,
          entry.channels.map((channel) => `${channel.name} (#${channel.id})`).join(', '),
        ]),
      ),
    [unpriced.data],
  );

  return (
    <UnpricedModelsAlert
      models={models}
      hint={t('unpriced.hint')}
      testId="pricing-unpriced"
      sx={{ mb: 2 }}
      renderModel={(model) => (
        <Tooltip title={t('unpriced.servedBy', { channels: servedBy.get(model) ?? '' })} describeChild>
          <Chip
            size="small"
            variant="outlined"
            label={model}
            onClick={() => onAdd(model)}
            data-testid={`pricing-unpriced-${model}`}
          />
        </Tooltip>
      )}
    />
  );
}
