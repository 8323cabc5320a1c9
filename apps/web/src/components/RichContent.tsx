import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { richContentKind } from '../lib/richContent.js';
import { sanitizeHtml } from '../lib/sanitizeHtml.js';
import { Markdown, proseStyles } from './Markdown.js';

interface RichContentProps {
  content: string;
  /**
   * Render HTML content as HTML (sanitised: scripts, frames, event handlers and `javascript:`
   * links are removed). Only for text an administrator set (home page, about, footer).
   */
  allowHtml?: boolean;
  testId?: string;
}

/** Admin-written content: a URL in a full-height frame, trusted HTML, or markdown. */
export function RichContent({ content, allowHtml = false, testId }: RichContentProps) {
  const { t } = useTranslation();
  const kind = richContentKind(content);
  const safeHtml = useMemo(
    () => (kind === 'html' && allowHtml ? sanitizeHtml(content) : ''),
    [kind, allowHtml, content],
  );
  if (kind === 'url') {
    return (
      <Box
        component="iframe"
        src={content.trim()}
        title={t('public:embeddedContent')}
        data-testid={testId}
        sx={{ border: 0, width: '100%', height: '100%', minHeight: 'calc(100vh - 72px)', display: 'block' }}
      />
    );
  }
  if (kind === 'html' && allowHtml) {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised administrator-set content, see allowHtml.
    return <Box sx={proseStyles} data-testid={testId} dangerouslySetInnerHTML={{ __html: safeHtml }} />;
  }
  return <Markdown testId={testId}>{content}</Markdown>;
}
