import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader.js';
import { RichContent } from '../../components/RichContent.js';
import { notify } from '../../lib/notify.js';
import { richContentKind } from '../../lib/richContent.js';
import { CONTAINER_MAX_WIDTH } from '../../theme/layout.js';
import { useHomePageContent } from './home.api.js';
import { Landing } from './Landing.js';

/** `/`: the administrator's home page content (URL → frame, HTML, markdown), else the built-in landing. */
export function HomePage() {
  const { t } = useTranslation('public');
  const content = useHomePageContent();

  useEffect(() => {
    if (content.isError) notify.error(t('home.loadFailed'));
  }, [content.isError, t]);

  if (content.isPending) return <PageLoader />;
  const text = content.data?.trim() ?? '';
  if (!text) return <Landing />;
  if (richContentKind(text) === 'url') return <RichContent content={text} testId="home-content" />;
  return (
    <Container maxWidth={false} sx={{ maxWidth: { md: CONTAINER_MAX_WIDTH }, py: { xs: 4, md: 6 } }}>
      <Box sx={{ maxWidth: 880, mx: 'auto' }}>
        <RichContent content={text} allowHtml testId="home-content" />
      </Box>
    </Container>
  );
}
