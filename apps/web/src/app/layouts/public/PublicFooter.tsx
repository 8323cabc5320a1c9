import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSiteInfo } from '../../../hooks/useSiteInfo.js';
import { sanitizeHtml } from '../../../lib/sanitizeHtml.js';
import { CONTAINER_MAX_WIDTH } from '../../../theme/layout.js';
import { routerBasename } from '../../basePath.js';
import { productInfo } from '../../productInfo.js';

/** The licence file sits at the console's root, under whatever base path it is served. */
const licenceHref = () => `${routerBasename().replace(/\/$/, '')}/${productInfo.licenseFile}`;

/** The site's footer_html (administrator-set, rendered as sanitised HTML), else a credit line (spec §2). */
export function PublicFooter() {
  const { t } = useTranslation('shell');
  const { footer_html: footerHtml, system_name: name } = useSiteInfo();
  const safeFooter = useMemo(() => (footerHtml ? sanitizeHtml(footerHtml) : ''), [footerHtml]);

  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Container maxWidth={false} sx={{ maxWidth: { md: CONTAINER_MAX_WIDTH }, py: 3 }}>
        {safeFooter ? (
          <Box
            data-testid="custom-footer"
            sx={{ textAlign: 'center', color: 'text.secondary', fontSize: 14, '& a': { color: 'primary.main' } }}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: footer_html is set by the administrator and sanitised.
            dangerouslySetInnerHTML={{ __html: safeFooter }}
          />
        ) : (
          <Typography
            variant="body2"
            data-testid="credit-footer"
            sx={{
              color: 'text.secondary',
              display: 'flex',
              flexWrap: 'wrap',
              justifyContent: 'center',
              columnGap: 1.5,
              rowGap: 0.5,
            }}
          >
            <span>
              © {new Date().getFullYear()} {name}
            </span>
            <span aria-hidden>·</span>
            <Link component={RouterLink} to={productInfo.aboutPath} color="inherit" underline="hover">
              {t('footer.poweredBy', { product: productInfo.name })}
            </Link>
            <span aria-hidden>·</span>
            <Link
              href={licenceHref()}
              data-testid="footer-licence"
              target="_blank"
              rel="noopener noreferrer"
              color="inherit"
              underline="hover"
            >
              {t('footer.license')}
            </Link>
          </Typography>
        )}
      </Container>
    </Box>
  );
}
