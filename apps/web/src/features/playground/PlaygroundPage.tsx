import AddCommentOutlined from '@mui/icons-material/AddCommentOutlined';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import LockOutlined from '@mui/icons-material/LockOutlined';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusScreen } from '../../components/StatusScreen.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useSession } from '../../hooks/useSession.js';
import { describeError } from '../../lib/notify.js';
import { ChatComposer } from './ChatComposer.js';
import { ChatEmpty, ChatMessages } from './ChatMessages.js';
import { ChatSettings, type ChatSettingsValue } from './ChatSettings.js';
import { useChatModels, usePlaygroundKey } from './playground.api.js';
import { usePlaygroundChat } from './usePlaygroundChat.js';

/** Keeps a scrolled box pinned to its end while content grows, unless the reader scrolled up. */
function useStickToBottom(dependency: unknown) {
  const box = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const onScroll = () => {
    const element = box.current;
    if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dependency is what grows the box.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [dependency]);
  return { box, onScroll, pin: () => (pinned.current = true) };
}

function SettingsCard({
  title,
  summary,
  children,
  compact,
}: {
  title: string;
  summary: string;
  children: ReactNode;
  compact: boolean;
}) {
  if (compact) {
    return (
      <Accordion
        disableGutters
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, '&::before': { display: 'none' } }}
      >
        <AccordionSummary expandIcon={<ExpandMoreRounded />} data-testid="playground-settings-toggle">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0, flex: 1, pr: 1 }}>
            <TuneRounded fontSize="small" sx={{ color: 'text.secondary' }} />
            <Typography variant="subtitle2">{title}</Typography>
            <Box sx={{ flex: 1 }} />
            <Typography variant="caption" noWrap sx={{ color: 'text.secondary', minWidth: 0 }}>
              {summary}
            </Typography>
          </Stack>
        </AccordionSummary>
        <AccordionDetails sx={{ pt: 1 }}>{children}</AccordionDetails>
      </Accordion>
    );
  }
  return (
    <Card sx={{ alignSelf: 'start' }}>
      <CardContent sx={{ p: 2.5 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2.5 }}>
          <TuneRounded fontSize="small" sx={{ color: 'text.secondary' }} />
          <Typography variant="subtitle2">{title}</Typography>
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

/** The chat itself, in either layout: settings, conversation and message box. */
export function Playground() {
  const { t } = useTranslation('playground');
  const compact = useCompact('md');
  const key = usePlaygroundKey();
  const models = useChatModels();
  const chat = usePlaygroundChat();
  const [settings, setSettings] = useState<ChatSettingsValue>({ model: '', system: '', temperature: 1 });
  const [draft, setDraft] = useState('');
  const scroller = useStickToBottom(chat.turns);

  const modelList = models.data ?? [];
  const firstModel = modelList[0]?.model ?? '';
  const modelKnown = modelList.some((option) => option.model === settings.model);
  useEffect(() => {
    if (!modelKnown && firstModel) setSettings((current) => ({ ...current, model: firstModel }));
  }, [modelKnown, firstModel]);

  const ready = Boolean(key.data) && modelKnown;
  const send = (text = draft) => {
    if (!key.data || !ready || !text.trim()) return;
    scroller.pin();
    setDraft('');
    void chat.send({ text, key: key.data, ...settings });
  };

  let notice: ReactNode = null;
  if (key.isError) {
    notice = (
      <Alert severity="error" data-testid="playground-key-error">
        {describeError(key.error)}
      </Alert>
    );
  } else if (models.isError) {
    notice = <Alert severity="error">{describeError(models.error)}</Alert>;
  } else if (models.isSuccess && modelList.length === 0) {
    notice = (
      <Alert severity="info" data-testid="playground-no-models">
        {t('noModels')}
      </Alert>
    );
  }

  return (
    <Stack spacing={2.5} data-testid="playground">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1">
            {t('title')}
          </Typography>
          <Typography sx={{ color: 'text.secondary', mt: 0.5, display: { xs: 'none', sm: 'block' } }}>
            {t('subtitle')}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          startIcon={<AddCommentOutlined />}
          onClick={() => {
            chat.reset();
            setDraft('');
          }}
          disabled={chat.turns.length === 0}
          data-testid="playground-new-chat"
          sx={{ flexShrink: 0 }}
        >
          {t('newChat')}
        </Button>
      </Stack>
      {notice}
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) 300px' },
        }}
      >
        <Box sx={{ order: { xs: 2, md: 1 }, minWidth: 0 }}>
          <Card
            sx={{
              display: 'flex',
              flexDirection: 'column',
              height: { xs: 'calc(100dvh - 190px)', md: 'calc(100vh - 250px)' },
              minHeight: { xs: 440, md: 520 },
            }}
          >
            <Box
              ref={scroller.box}
              onScroll={scroller.onScroll}
              data-testid="playground-messages"
              sx={{ flex: 1, overflowY: 'auto', px: { xs: 2, sm: 3 }, py: 2, display: 'flex', flexDirection: 'column' }}
            >
              {chat.turns.length === 0 ? (
                <ChatEmpty
                  suggestions={[t('suggestion.explain'), t('suggestion.write'), t('suggestion.translate')]}
                  onPick={(text) => setDraft(text)}
                />
              ) : (
                <ChatMessages turns={chat.turns} />
              )}
            </Box>
            <Box sx={{ px: { xs: 1.5, sm: 3 }, pb: { xs: 1.5, sm: 2 }, pt: 1 }}>
              <ChatComposer
                value={draft}
                onChange={setDraft}
                onSend={() => send()}
                onStop={chat.stop}
                busy={chat.busy}
                disabled={!ready}
                model={settings.model}
              />
            </Box>
          </Card>
        </Box>
        <Box sx={{ order: { xs: 1, md: 2 }, minWidth: 0 }}>
          <SettingsCard title={t('settings')} summary={settings.model} compact={compact}>
            <ChatSettings
              value={settings}
              onChange={setSettings}
              models={modelList}
              loadingModels={models.isPending}
              disabled={chat.busy}
            />
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 2.5 }}>
              {t('billingNote')}
            </Typography>
          </SettingsCard>
        </Box>
      </Box>
    </Stack>
  );
}

/** `/panel/playground`. */
export function PlaygroundPage() {
  return <Playground />;
}

/** `/playground` in the public layout: for signed-in visitors; others are asked to sign in. */
export function PublicPlaygroundPage() {
  const { t } = useTranslation('playground');
  const { isSignedIn } = useSession();
  if (!isSignedIn) {
    return (
      <StatusScreen
        testId="playground-signin"
        badge={<LockOutlined fontSize="inherit" />}
        title={t('signInTitle')}
        description={t('signInDescription')}
        action={
          <Button component={RouterLink} to="/login" variant="contained" data-testid="playground-signin-button">
            {t('signIn')}
          </Button>
        }
      />
    );
  }
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 2.5, md: 4 }, px: { xs: 2, sm: 3 } }}>
      <Playground />
    </Container>
  );
}
