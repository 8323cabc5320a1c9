import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import DataUsageOutlined from '@mui/icons-material/DataUsageOutlined';
import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import WorkspacesOutlined from '@mui/icons-material/WorkspacesOutlined';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { formatQuota, type UserView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { fillPlaceholders, strings } from '../../i18n/strings.js';
import { useSelf } from '../auth/auth.api.js';
import { quotaDisplayOptions, useSiteInfo } from '../site/site.api.js';
import { roleLabel } from './roleLabel.js';
import { StatCard } from './StatCard.js';

interface CardSpec {
  key: string;
  label: string;
  value: ReactNode;
  icon: ReactNode;
  testId: string;
  caption: ReactNode;
  captionTestId?: string;
}

function cardsFor(user: UserView, quota: (value: number) => string): CardSpec[] {
  const text = strings.dashboard;
  return [
    {
      key: 'account',
      label: text.account,
      value: user.display_name || user.username,
      icon: <AccountCircleOutlined />,
      testId: 'user-name',
      caption: `@${user.username}`,
      captionTestId: 'user-username',
    },
    {
      key: 'role',
      label: text.role,
      value: roleLabel(user.role),
      icon: <AdminPanelSettingsOutlined />,
      testId: 'user-role',
      caption: text.roleHint,
    },
    {
      key: 'group',
      label: text.group,
      value: user.group,
      icon: <WorkspacesOutlined />,
      testId: 'user-group',
      caption: text.groupHint,
    },
    {
      key: 'balance',
      label: text.balance,
      value: quota(user.quota),
      icon: <AccountBalanceWalletOutlined />,
      testId: 'user-quota',
      caption: text.balanceHint,
    },
    {
      key: 'used',
      label: text.usedQuota,
      value: quota(user.used_quota),
      icon: <DataUsageOutlined />,
      testId: 'user-used-quota',
      caption: text.usedQuotaHint,
    },
    {
      key: 'requests',
      label: text.requestCount,
      value: user.request_count.toLocaleString(),
      icon: <QueryStatsOutlined />,
      testId: 'user-request-count',
      caption: text.requestCountHint,
    },
  ];
}

export function DashboardPage() {
  const { data: user } = useSelf();
  const { siteInfo } = useSiteInfo();
  if (!user) return null;

  const options = quotaDisplayOptions(siteInfo);
  const cards = cardsFor(user, (value) => formatQuota(value, options));

  return (
    <Box>
      <Typography variant="h4" component="h1">
        {fillPlaceholders(strings.dashboard.welcome, { name: user.display_name || user.username })}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mt: 0.5, mb: 3 }}>{strings.dashboard.overview}</Typography>
      <Grid container spacing={2.5}>
        {cards.map(({ key, ...card }) => (
          <Grid key={key} size={{ xs: 12, sm: 6, lg: 4 }}>
            <StatCard {...card} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
