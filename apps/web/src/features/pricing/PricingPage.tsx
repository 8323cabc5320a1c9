import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.js';
import { PageTabs } from '../../components/PageTabs.js';
import { useCompact } from '../../hooks/useCompact.js';
import { ModelInfoTab } from './ModelInfoTab.js';
import { OwnersTab } from './OwnersTab.js';
import { PricesTab } from './PricesTab.js';
import { ownerOptions } from './priceTable.js';
import { useOwnedBy, useProviders } from './pricing.api.js';
import { UpdateCheckTab } from './UpdateCheckTab.js';
import { PRICING_TABS, usePricingParams } from './usePricingParams.js';

/** Pricing administration (reference §1.11, §1.12): prices, the price-update check, owners, model info. */
export function PricingPage() {
  const { t } = useTranslation('pricing');
  const compact = useCompact('md');
  const [params, update] = usePricingParams();
  const providers = useProviders();
  const ownedBy = useOwnedBy();
  const owners = useMemo(() => ownerOptions(providers.data, ownedBy.data), [providers.data, ownedBy.data]);
  const ownerMap = useMemo(() => new Map(owners.map((owner) => [owner.id, owner])), [owners]);

  return (
    <Box data-testid="pricing-page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <PageTabs
        tabs={PRICING_TABS}
        value={params.tab}
        onChange={(tab) => update({ tab })}
        label={(tab) => t(`tabs.${tab}`)}
        testId="pricing"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      />
      {params.tab === 'prices' && (
        <PricesTab params={params} update={update} owners={owners} ownerMap={ownerMap} compact={compact} />
      )}
      {params.tab === 'check' && <UpdateCheckTab ownerMap={ownerMap} />}
      {params.tab === 'owners' && <OwnersTab />}
      {params.tab === 'info' && <ModelInfoTab />}
    </Box>
  );
}
