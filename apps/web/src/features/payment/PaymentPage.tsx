import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { PaymentGatewayView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CreateButton } from '../../components/ListPage.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { GatewayFormDialog } from './GatewayFormDialog.js';
import { GatewaysTab } from './GatewaysTab.js';
import { OrdersTab } from './OrdersTab.js';
import { type PaymentTab, parseTab } from './paymentListParams.js';
import { useIsRoot } from './paymentRole.js';

/** Administrators set up payment gateways and look up the orders paid through them (spec §9). */
export function PaymentPage() {
  const { t } = useTranslation('payment');
  const compact = useCompact('sm');
  const [search, setSearch] = useSearchParams();
  const tab = parseTab(search);
  const formDialog = useDialogSubject<PaymentGatewayView>();
  const root = useIsRoot();
  // Each tab keeps its own filters in the URL; switching tab starts the other one clean.
  const showTab = (next: PaymentTab) => setSearch(next === 'orders' ? { tab: 'orders' } : {});

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          tab === 'gateways' &&
          root && <CreateButton label={t('create')} onClick={() => formDialog.show(null)} testId="payment-create" />
        }
      />
      <Tabs value={tab} onChange={(_event, next: PaymentTab) => showTab(next)} sx={{ mb: 2 }}>
        <Tab value="gateways" label={t('tabs.gateways')} data-testid="payment-tab-gateways" />
        <Tab value="orders" label={t('tabs.orders')} data-testid="payment-tab-orders" />
      </Tabs>
      {tab === 'gateways' ? (
        <GatewaysTab compact={compact} onCreate={() => formDialog.show(null)} onEdit={formDialog.show} />
      ) : (
        <OrdersTab compact={compact} />
      )}
      <GatewayFormDialog
        open={formDialog.open}
        session={formDialog.session}
        gateway={formDialog.subject}
        onClose={formDialog.close}
      />
    </Box>
  );
}
