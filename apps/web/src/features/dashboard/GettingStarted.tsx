import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSetupFacts } from './dashboard.api.js';
import { nextSetupStep, setupSteps } from './gettingStarted.js';

/**
 * Shown to an administrator instead of the empty usage card until their first request: the steps
 * from a new installation to a first call, each ticked once done, the next one offered as a button.
 */
export function GettingStarted({ requests }: { requests: number }) {
  const { t } = useTranslation('dashboard');
  const facts = useSetupFacts(true);
  const steps = facts.data ? setupSteps({ ...facts.data, requests }) : undefined;
  const next = steps ? nextSetupStep(steps) : undefined;
  return (
    <Card component="section" data-testid="getting-started" sx={{ px: { xs: 2.5, md: 4 }, py: { xs: 3, md: 4 } }}>
      <Typography variant="h6" component="h2">
        {t('setup.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75, maxWidth: 640 }}>
        {t('setup.description')}
      </Typography>
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, mt: 3, mb: 0 }}>
        {(steps ?? []).map((step, index) => (
          <Box
            component="li"
            key={step.id}
            data-testid={`setup-step-${step.id}`}
            data-done={step.done ? 'true' : 'false'}
            sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}
          >
            <Box sx={{ color: step.done ? 'success.main' : 'text.disabled', pt: '2px' }}>
              {step.done ? (
                <CheckCircle fontSize="small" aria-label={t('setup.done')} />
              ) : (
                <RadioButtonUnchecked fontSize="small" aria-label={t('setup.todo')} />
              )}
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2" sx={{ textDecoration: step.done ? 'line-through' : 'none' }}>
                {`${index + 1}. ${t(`setup.steps.${step.id}.title`)}`}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t(`setup.steps.${step.id}.description`)}
              </Typography>
            </Box>
            <Button
              size="small"
              variant={step === next ? 'contained' : 'text'}
              component={RouterLink}
              to={step.to}
              data-testid={`setup-go-${step.id}`}
            >
              {t(`setup.steps.${step.id}.action`)}
            </Button>
          </Box>
        ))}
        {!steps &&
          [0, 1, 2, 3].map((row) => (
            <Box component="li" key={row}>
              <Skeleton height={40} />
            </Box>
          ))}
      </Stack>
    </Card>
  );
}
