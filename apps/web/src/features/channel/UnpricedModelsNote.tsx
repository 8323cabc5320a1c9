import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { UnpricedModelsAlert } from '../../components/UnpricedModelsAlert.js';
import { unpricedModels } from './unpricedModels.js';

/** Which of the channel's models, as the form stands, have no price, and what their requests meet. */
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
  const unpriced = useMemo(
    () => (prices ? unpricedModels(models, modelMapping, prices) : []),
    [models, modelMapping, prices],
  );
  return <UnpricedModelsAlert models={unpriced} hint={t('form.unpricedHint')} testId="channel-unpriced-note" />;
}
