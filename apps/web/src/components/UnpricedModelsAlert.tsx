import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { FALLBACK_MODEL_PRICE, isRootRole, priceToUsd } from '@one-hub/contracts';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOptions } from '../hooks/useOptions.js';
import { useSession } from '../hooks/useSession.js';
import { shownNames, unpricedPolicy } from './unpricedNote.js';

interface UnpricedModelsAlertProps {
  /** The unpriced models, in the order to show them; nothing is shown when empty. */
  models: readonly string[];
  /** What the reader can do about it, said after what happens to the requests. */
  hint: string;
  testId: string;
  /** One name as the screen wants it (a chip that opens a dialog); plain comma-separated text without. */
  renderModel?: (model: string) => ReactNode;
  sx?: SxProps<Theme>;
}

/**
 * Names models that have no price and says what their requests meet: the fallback price, or a
 * refusal (`UnpricedModelPolicy`). The channel dialog and the price list both show it.
 */
export function UnpricedModelsAlert({ models, hint, testId, renderModel, sx }: UnpricedModelsAlertProps) {
  const { t } = useTranslation();
  const { user } = useSession();
  const options = useOptions(isRootRole(user?.role));
  if (models.length === 0) return null;

  const policy = unpricedPolicy(options.data);
  const { shown, more } = shownNames(models);
  return (
    <Alert severity={policy === 'refuse' ? 'error' : 'warning'} data-testid={testId} data-policy={policy} sx={sx}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 0.75, rowGap: 0.5, mb: 0.5 }}>
        {/* The spaces are for the text a screen reader or a copy gets; the gap lays the names out. */}
        <span>{t('unpriced.lead')}</span>{' '}
        {renderModel ? (
          shown.map((model) => <Fragment key={model}>{renderModel(model)} </Fragment>)
        ) : (
          <span>{shown.join(', ')}</span>
        )}
        {more > 0 && <span> {t('unpriced.more', { count: more })}</span>}
      </Box>{' '}
      <div>
        {t(`unpriced.${policy}`, {
          input: `$${priceToUsd(FALLBACK_MODEL_PRICE.input).perMillion}`,
          output: `$${priceToUsd(FALLBACK_MODEL_PRICE.output).perMillion}`,
        })}{' '}
        {hint}
      </div>
    </Alert>
  );
}
