import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LogView, RouteExplanation } from '@one-hub/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Passed as a variable: MUI's slot prop types leave out data attributes. */
const routePaper = { sx: { p: 2, minWidth: 240, maxWidth: 340 }, 'data-testid': 'log-route' };

/** The route the relay recorded in the row's metadata; only administrators' rows carry one. */
function routeOf(log: LogView): RouteExplanation | undefined {
  const route = log.metadata.route as RouteExplanation | undefined;
  return route && Array.isArray(route.tried) && Array.isArray(route.skipped) ? route : undefined;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="overline" sx={{ color: 'text.secondary' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Line({ left, right, testId }: { left: string; right: string; testId: string }) {
  return (
    <Stack direction="row" spacing={3} sx={{ justifyContent: 'space-between', py: 0.25 }} data-testid={testId}>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {left}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {right}
      </Typography>
    </Stack>
  );
}

/**
 * The log's channel, which opens how the request was routed when the row records it: the balancing
 * strategy, each channel tried with its outcome and time, and the channels passed over and why.
 */
export function ChannelCell({ log, label }: { log: LogView; label: string }) {
  const { t } = useTranslation('log');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const route = routeOf(log);
  const text = label || '–';
  if (!route) {
    return (
      <Typography variant="body2" component="span" data-testid={`log-channel-${log.id}`}>
        {text}
      </Typography>
    );
  }
  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('route.open')}
        data-testid={`log-channel-${log.id}`}
        sx={{ font: 'inherit', borderRadius: 0.5, textDecoration: 'underline dotted', textUnderlineOffset: 3 }}
      >
        {text}
      </ButtonBase>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: routePaper }}
      >
        <Stack spacing={1}>
          <Section title={t('route.strategy')}>
            <Typography variant="body2">{t(`route.strategies.${route.strategy}`, route.strategy)}</Typography>
          </Section>
          <Section title={t('route.tried')}>
            {route.tried.map((entry, index) => (
              <Line
                key={entry.id}
                left={`#${entry.id}`}
                right={`${t(`route.outcomes.${entry.outcome}`, entry.outcome)} · ${t('route.ms', { ms: entry.ms })}`}
                testId={`log-route-tried-${index}`}
              />
            ))}
          </Section>
          {route.skipped.length > 0 && (
            <Section title={t('route.skipped')}>
              {route.skipped.map((entry, index) => (
                <Line
                  key={`${entry.id}-${entry.reason}`}
                  left={`#${entry.id}`}
                  right={t(`route.reasons.${entry.reason}`, entry.reason)}
                  testId={`log-route-skipped-${index}`}
                />
              ))}
            </Section>
          )}
        </Stack>
      </Popover>
    </>
  );
}
