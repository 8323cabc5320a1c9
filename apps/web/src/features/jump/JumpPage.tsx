import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { PageLoader } from '../../components/PageLoader.js';
import { StatusScreen } from '../../components/StatusScreen.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { allowedJumpOrigins, JUMP_DELAY_SECONDS, jumpTarget } from './jumpTarget.js';

/** The /jump target under the site's current chat-link settings; null when it may not be followed. */
function useJumpTarget() {
  const { chat_link, chat_links, server_address, isLoading } = useSiteInfo();
  const search = useLocation().search;
  const target = useMemo(() => {
    const origin = window.location.origin;
    const allowedOrigins = allowedJumpOrigins({ chat_link, chat_links, server_address }, origin);
    return jumpTarget(search, { origin, allowedOrigins });
  }, [search, chat_link, chat_links, server_address]);
  return { target, loading: isLoading };
}

/**
 * `/jump?url=…`: after a short countdown, the browser goes to a page of this site or to a chat
 * client the administrator configured; anything else is refused with a message.
 */
export function JumpPage() {
  const { t } = useTranslation('public');
  const { target: jump, loading } = useJumpTarget();
  const target = jump?.href ?? null;
  const [seconds, setSeconds] = useState(JUMP_DELAY_SECONDS);

  useEffect(() => {
    if (!jump) return;
    if (seconds <= 0) {
      window.location.assign(jump.href);
      return;
    }
    const timer = window.setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, jump]);

  // The allowed sites come with /api/status: judge an outside address once it has answered.
  if (!jump && loading) return <PageLoader />;
  if (!target) {
    return (
      <StatusScreen
        testId="jump-invalid"
        badge={<LinkOffRounded fontSize="inherit" />}
        title={t('jump.invalidTitle')}
        description={t('jump.invalidDescription')}
        action={
          <Button component={RouterLink} to="/" variant="outlined">
            {t('common:backHome')}
          </Button>
        }
      />
    );
  }

  return (
    <StatusScreen
      testId="jump"
      badge={<OpenInNewRounded fontSize="inherit" />}
      title={t('jump.title')}
      description={
        <>
          {t('jump.countdown', { seconds: Math.max(seconds, 0) })}
          <Box
            component="span"
            data-testid="jump-target"
            sx={{ display: 'block', mt: 1, fontFamily: monospaceFontStack, fontSize: 13, wordBreak: 'break-all' }}
          >
            {target}
          </Box>
        </>
      }
      action={
        <Button variant="contained" href={target} endIcon={<OpenInNewRounded />}>
          {t('jump.goNow')}
        </Button>
      }
    />
  );
}
