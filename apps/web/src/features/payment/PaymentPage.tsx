import Box from '@mui/material/Box';
import type { PaymentGatewayView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { CreateButton } from '../../components/ListPage.js';
import { PageHeader } from '../../components/PageHeader.js';
import { PageTabs, useUrlTab } from '../../components/PageTabs.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { GatewayFormDialog } from './GatewayFormDialog.js';
import { GatewaysTab } from './GatewaysTab.js';
import { OrdersTab } from './OrdersTab.js';
import { PAYMENT_TABS } from './paymentListParams.js';
import { useIsRoot } from './paymentRole.js';

/** Administrators set up payment gateways and look up the orders paid through them (spec §9). */
export function PaymentPage() {
  const { t } = useTranslation('payment');
  // Each tab keeps its own filters in the URL; switching tab starts the other one clean.
  const [tab, showTab] = useUrlTab(PAYMENT_TABS, false);
  const formDialog = useDialogSubject<PaymentGatewayView>();
  const root = useIsRoot();

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
      <PageTabs
        tabs={PAYMENT_TABS}
        value={tab}
        onChange={showTab}
        label={(value) => t(`tabs.${value}`)}
        testId="payment"
        scrollable={false}
        sx={{ mb: 2 }}
      />
      {tab === 'gateways' ? (
        <GatewaysTab onCreate={() => formDialog.show(null)} onEdit={formDialog.show} />
      ) : (
        <OrdersTab />
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
