import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import type { AnchorHTMLAttributes } from 'react';
import ReactMarkdown from 'react-markdown';
import { monospaceFontStack } from '../theme/fonts.js';

function ExternalAwareLink({ href, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  const external = typeof href === 'string' && /^https?:\/\//i.test(href);
  return (
    <a href={href} {...rest} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
    </a>
  );
}

const markdownComponents = { a: ExternalAwareLink };

/** Readable typography for rendered markdown and admin HTML. */
export const proseStyles = {
  color: 'text.primary',
  lineHeight: 1.75,
  overflowWrap: 'anywhere',
  '& > :first-of-type': { mt: 0 },
  '& > :last-child': { mb: 0 },
  '& h1, & h2, & h3, & h4': { lineHeight: 1.3, mt: 3.5, mb: 1.5, fontWeight: 700, letterSpacing: '-0.01em' },
  '& h1': { fontSize: '1.875rem' },
  '& h2': { fontSize: '1.5rem' },
  '& h3': { fontSize: '1.25rem' },
  '& h4': { fontSize: '1.0625rem' },
  '& p, & ul, & ol, & blockquote, & pre': { my: 1.5 },
  '& a': { color: 'primary.main', textUnderlineOffset: '3px' },
  '& img': { maxWidth: '100%', borderRadius: 1 },
  '& code': {
    fontFamily: monospaceFontStack,
    fontSize: '0.875em',
    px: 0.5,
    py: 0.25,
    borderRadius: '4px',
    bgcolor: 'action.hover',
  },
  '& pre': { p: 2, borderRadius: '10px', overflowX: 'auto', bgcolor: 'action.hover' },
  '& pre code': { p: 0, bgcolor: 'transparent' },
  '& blockquote': {
    mx: 0,
    pl: 2,
    color: 'text.secondary',
    borderLeft: (theme: { palette: { primary: { main: string } } }) =>
      `3px solid ${alpha(theme.palette.primary.main, 0.5)}`,
  },
  '& hr': { border: 0, borderTop: 1, borderColor: 'divider', my: 3 },
  '& table': { borderCollapse: 'collapse', width: '100%' },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1.5, py: 1, textAlign: 'left' },
} as const;

/**
 * Markdown from the server. Raw HTML inside it is shown as text, and unsafe link schemes are
 * removed (react-markdown's defaults), so it is safe for any content.
 */
export function Markdown({ children, testId }: { children: string; testId?: string }) {
  return (
    <Box sx={proseStyles} data-testid={testId}>
      <ReactMarkdown components={markdownComponents}>{children}</ReactMarkdown>
    </Box>
  );
}
