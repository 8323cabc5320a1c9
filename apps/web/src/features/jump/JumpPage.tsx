import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { JUMP_DELAY_SECONDS, jumpTarget } from './jumpTarget.js';

/** `/jump?url=…`: a short countdown, then the browser goes to the http(s) address; anything else is refused. */
export function JumpPage() {
  const { t } = useTranslation('public');
  const target = jumpTarget(useLocation().search);
  const [seconds, setSeconds] = useState(JUMP_DELAY_SECONDS);

  useEffect(() => {
    if (!target) return;
    if (seconds <= 0) {
      window.location.assign(target);
      return;
    }
    const timer = window.setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, target]);

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
