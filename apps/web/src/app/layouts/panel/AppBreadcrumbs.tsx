import HomeOutlined from '@mui/icons-material/HomeOutlined';
import NavigateNextRounded from '@mui/icons-material/NavigateNextRounded';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BREADCRUMB_MAX_ITEMS } from '../../../theme/layout.js';
import { collapseTarget, type MenuTrail } from '../../menu/menu.js';

interface Crumb {
  label: string;
  to?: string;
}

/** Dashboard, then the current menu group, collapse and item (spec §2; at most 8 shown). */
export function AppBreadcrumbs({ trail }: { trail: MenuTrail | null }) {
  const { t } = useTranslation('shell');
  const crumbs: Crumb[] = [{ label: t('screens.dashboard'), to: '/panel/dashboard' }];
  if (trail) {
    crumbs.push({ label: t(`groups.${trail.group.id}`) });
    if (trail.collapse)
      crumbs.push({ label: t(`groups.${trail.collapse.id}`), to: collapseTarget(trail.collapse) ?? undefined });
    crumbs.push({ label: t(`screens.${trail.link.id}`) });
  }
  // "Dashboard › Dashboard › Dashboard" says nothing: drop repeated labels.
  const distinct = crumbs.filter((crumb, index) => index === 0 || crumb.label !== crumbs[index - 1]?.label);

  return (
    <Breadcrumbs
      maxItems={BREADCRUMB_MAX_ITEMS}
      separator={<NavigateNextRounded sx={{ fontSize: 16 }} />}
      aria-label={t('breadcrumb.label')}
      data-testid="breadcrumbs"
      sx={{ mb: 2.5, color: 'text.secondary' }}
    >
      {distinct.map((crumb, index) => {
        const last = index === distinct.length - 1;
        if (last) {
          return (
            <Typography
              key={crumb.label}
              aria-current="page"
              sx={{
                display: 'flex',
                alignItems: 'center',
                color: 'text.primary',
                fontWeight: 600,
                fontSize: 'inherit',
              }}
            >
              {index === 0 && <HomeOutlined sx={{ fontSize: 17, mr: 0.5 }} />}
              {crumb.label}
            </Typography>
          );
        }
        return crumb.to ? (
          <Link
            key={crumb.label}
            component={RouterLink}
            to={crumb.to}
            underline="hover"
            color="inherit"
            sx={{ display: 'flex', alignItems: 'center' }}
          >
            {index === 0 && <HomeOutlined sx={{ fontSize: 17, mr: 0.5 }} />}
            {crumb.label}
          </Link>
        ) : (
          <Typography key={crumb.label} sx={{ fontSize: 'inherit', display: 'flex', alignItems: 'center' }}>
            {crumb.label}
          </Typography>
        );
      })}
    </Breadcrumbs>
  );
}
