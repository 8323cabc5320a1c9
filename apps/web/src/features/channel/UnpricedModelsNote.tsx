import Alert from '@mui/material/Alert';
import { FALLBACK_MODEL_PRICE, isRootRole, priceToUsd, refusesUnpricedModels } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOptions } from '../../hooks/useOptions.js';
import { useSession } from '../../hooks/useSession.js';
import { unpricedModels } from './unpricedModels.js';

/** Past this many names the note counts the rest, so a long list does not fill the dialog. */
const NAMES_SHOWN = 12;

type Policy = 'fallback' | 'refuse' | 'unknown';

/**
 * Says which of the channel's models have no price and what their requests meet: the fallback
 * price, or a refusal (`UnpricedModelPolicy`). Only root may read options; an administrator is
 * told both possibilities.
 */
export function UnpricedModelsNote({
  models,
  modelMapping,
  prices,
}: {
  models: readonly string[];
  modelMapping: string;
  prices: ReadonlyArray<{ model: string }> | undefined;
}) {
  const { t } = useTranslation('channel');
  const { user } = useSession();
  const options = useOptions(isRootRole(user?.role));
  const unpriced = useMemo(
    () => (prices ? unpricedModels(models, modelMapping, prices) : []),
    [models, modelMapping, prices],
  );
  if (unpriced.length === 0) return null;

  const stored = options.data?.values.UnpricedModelPolicy;
  const policy: Policy = options.data ? (refusesUnpricedModels(stored) ? 'refuse' : 'fallback') : 'unknown';
  const shown = unpriced.slice(0, NAMES_SHOWN).join(', ');
  const names =
    unpriced.length > NAMES_SHOWN
      ? t('form.unpriced.more', { names: shown, count: unpriced.length - NAMES_SHOWN })
      : shown;
  return (
    <Alert
      severity={policy === 'refuse' ? 'error' : 'warning'}
      data-testid="channel-unpriced-note"
      data-policy={policy}
    >
      {t(`form.unpriced.${policy}`, {
        models: names,
        input: `$${priceToUsd(FALLBACK_MODEL_PRICE.input).perMillion}`,
        output: `$${priceToUsd(FALLBACK_MODEL_PRICE.output).perMillion}`,
      })}
    </Alert>
  );
}
