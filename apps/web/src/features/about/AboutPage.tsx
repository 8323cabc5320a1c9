import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader.js';
import { RichContent } from '../../components/RichContent.js';
import { StatusScreen } from '../../components/StatusScreen.js';
import { notify } from '../../lib/notify.js';
import { richContentKind } from '../../lib/richContent.js';
import { useAboutContent } from './about.api.js';

/** `/about`: the administrator's about text, with the same rules as the home page. */
export function AboutPage() {
  const { t } = useTranslation('public');
  const content = useAboutContent();

  useEffect(() => {
    if (content.isError) notify.error(t('about.loadFailed'));
  }, [content.isError, t]);

  if (content.isPending) return <PageLoader />;
  const text = content.data?.trim() ?? '';
  if (!text) {
    return (
      <StatusScreen
        testId="about-empty"
        badge={<InfoOutlined fontSize="inherit" />}
        title={t('about.emptyTitle')}
        description={t('about.empty')}
      />
    );
  }
  if (richContentKind(text) === 'url') return <RichContent content={text} testId="about-content" />;
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
      <Box component="article">
        <RichContent content={text} allowHtml testId="about-content" />
      </Box>
    </Container>
  );
}
