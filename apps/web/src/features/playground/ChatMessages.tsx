import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import StopCircleOutlined from '@mui/icons-material/StopCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { alpha, keyframes } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../components/Markdown.js';
import { copyToClipboard } from '../../lib/clipboard.js';
import type { ChatTurn } from './usePlaygroundChat.js';

const blink = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0; }
`;

const bounce = keyframes`
  0%, 80%, 100% { transform: scale(0.6); opacity: 0.4; }
  40% { transform: scale(1); opacity: 1; }
`;

function TypingDots() {
  const { t } = useTranslation('playground');
  return (
    <Stack direction="row" spacing={0.5} sx={{ py: 1 }} role="status" aria-label={t('waiting')}>
      {[0, 1, 2].map((index) => (
        <Box
          key={index}
          sx={{
            width: 7,
            height: 7,
            borderRadius: '50%',
            bgcolor: 'text.secondary',
            animation: `${bounce} 1.2s ${index * 0.16}s infinite ease-in-out`,
          }}
        />
      ))}
    </Stack>
  );
}

function UserBubble({ turn }: { turn: ChatTurn }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end' }} data-testid="playground-message-user">
      <Box
        sx={{
          maxWidth: { xs: '88%', sm: '75%' },
          px: 2,
          py: 1.25,
          borderRadius: '16px',
          borderBottomRightRadius: '6px',
          bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.1 : 0.22),
          color: 'text.primary',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          lineHeight: 1.65,
        }}
      >
        {turn.content}
      </Box>
    </Box>
  );
}

function AssistantFooter({ turn, showUsage }: { turn: ChatTurn; showUsage: boolean }) {
  const { t } = useTranslation('playground');
  const usage = showUsage ? turn.usage : undefined;
  const canCopy = turn.content !== '' && turn.state !== 'streaming';
  if (!canCopy && !usage && turn.state !== 'stopped') return null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mt: 0.5 }}>
      {turn.state === 'stopped' && (
        <Chip
          size="small"
          icon={<StopCircleOutlined />}
          label={t('stopped')}
          variant="outlined"
          data-testid="playground-stopped"
        />
      )}
      {canCopy && (
        <Tooltip title={t('copyAnswer')}>
          <IconButton
            size="small"
            aria-label={t('copyAnswer')}
            onClick={() => void copyToClipboard(turn.content, t('answer'))}
            sx={{ color: 'text.secondary' }}
          >
            <ContentCopyRounded sx={{ fontSize: 16 }} />
          </IconButton>
        </Tooltip>
      )}
      {usage && (
        <Typography
          variant="caption"
          data-testid="playground-usage"
          sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
        >
          {t('usage', {
            prompt: usage.prompt_tokens.toLocaleString(),
            completion: usage.completion_tokens.toLocaleString(),
            total: usage.total_tokens.toLocaleString(),
          })}
        </Typography>
      )}
    </Stack>
  );
}

function AssistantMessage({ turn, showUsage }: { turn: ChatTurn; showUsage: boolean }) {
  const { t } = useTranslation('playground');
  const streaming = turn.state === 'streaming';
  return (
    <Stack direction="row" spacing={1.5} data-testid="playground-message-assistant" data-state={turn.state}>
      <Box
        aria-hidden
        sx={{
          flexShrink: 0,
          width: 30,
          height: 30,
          mt: 0.25,
          display: 'grid',
          placeItems: 'center',
          borderRadius: '9px',
          color: 'primary.main',
          bgcolor: 'action.hover',
        }}
      >
        <AutoAwesomeOutlined sx={{ fontSize: 18 }} />
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        {turn.model && (
          <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600 }}>
            {turn.model}
          </Typography>
        )}
        {turn.content ? (
          <Box
            data-testid="playground-answer"
            sx={
              streaming
                ? {
                    '& > div > :last-child::after': {
                      content: '""',
                      display: 'inline-block',
                      width: '0.5em',
                      height: '1em',
                      ml: 0.25,
                      verticalAlign: 'text-bottom',
                      bgcolor: 'text.primary',
                      animation: `${blink} 1s step-end infinite`,
                    },
                  }
                : undefined
            }
          >
            <Markdown>{turn.content}</Markdown>
          </Box>
        ) : (
          streaming && <TypingDots />
        )}
        {turn.state === 'failed' && (
          <Alert
            severity="error"
            variant="outlined"
            data-testid="playground-error"
            sx={{ mt: turn.content ? 1.5 : 0.5 }}
          >
            {turn.error || t('networkError')}
          </Alert>
        )}
        <AssistantFooter turn={turn} showUsage={showUsage} />
      </Box>
    </Stack>
  );
}

export function ChatEmpty({ suggestions, onPick }: { suggestions: string[]; onPick(text: string): void }) {
  const { t } = useTranslation('playground');
  return (
    <Stack
      spacing={1.5}
      sx={{ alignItems: 'center', textAlign: 'center', m: 'auto', px: 2, py: 4, maxWidth: 460 }}
      data-testid="playground-empty"
    >
      <Box
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 52,
          height: 52,
          borderRadius: '14px',
          color: 'primary.main',
          bgcolor: 'action.hover',
        }}
      >
        <ForumOutlined />
      </Box>
      <Typography variant="h6" component="p">
        {t('emptyTitle')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('emptyDescription')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', justifyContent: 'center', gap: 1, pt: 1 }}>
        {suggestions.map((text) => (
          <Chip key={text} label={text} variant="outlined" onClick={() => onPick(text)} />
        ))}
      </Stack>
    </Stack>
  );
}

/** The conversation; only the last answer shows its token usage. */
export function ChatMessages({ turns }: { turns: ChatTurn[] }) {
  const lastAnswer = turns.findLast((turn) => turn.role === 'assistant');
  return (
    <Stack spacing={3} sx={{ py: 1 }}>
      {turns.map((turn) =>
        turn.role === 'user' ? (
          <UserBubble key={turn.id} turn={turn} />
        ) : (
          <AssistantMessage key={turn.id} turn={turn} showUsage={turn === lastAnswer} />
        ),
      )}
    </Stack>
  );
}
