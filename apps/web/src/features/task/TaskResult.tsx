import LyricsOutlined from '@mui/icons-material/LyricsOutlined';
import MusicNoteOutlined from '@mui/icons-material/MusicNoteOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AsyncTaskView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Muted } from '../../components/tasks/TaskCells.js';
import { type KlingVideo, klingVideos, type SunoClip, sunoClips, sunoLyrics } from './taskData.js';

/** The song's cover, or a music note where there is none or it does not load. */
function Cover({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation('task');
  const [broken, setBroken] = useState(false);
  const box = { width: 40, height: 40, borderRadius: 1, flexShrink: 0, bgcolor: 'action.hover' } as const;
  if (!url || broken) {
    return (
      <Box sx={{ ...box, display: 'grid', placeItems: 'center', color: 'text.secondary' }}>
        <MusicNoteOutlined fontSize="small" />
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={url}
      alt={title || t('result.cover')}
      loading="lazy"
      onError={() => setBroken(true)}
      sx={{ ...box, objectFit: 'cover' }}
    />
  );
}

function Clip({ clip, testId }: { clip: SunoClip; testId: string }) {
  const { t } = useTranslation('task');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }} data-testid={testId}>
      <Cover url={clip.imageUrl} title={clip.title} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" noWrap title={clip.title} sx={{ fontWeight: 600, maxWidth: 220 }}>
          {clip.title || t('result.untitled')}
        </Typography>
        {clip.audioUrl ? (
          <Box
            component="audio"
            controls
            preload="none"
            src={clip.audioUrl}
            data-testid={`${testId}-audio`}
            sx={{ display: 'block', height: 32, width: { xs: '100%', sm: 260 } }}
          />
        ) : (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('result.noAudio')}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

function Video({ video, testId }: { video: KlingVideo; testId: string }) {
  const { t } = useTranslation('task');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Box
        component="video"
        controls
        preload="metadata"
        src={video.url}
        data-testid={`${testId}-video`}
        sx={{ width: 160, maxWidth: '100%', aspectRatio: '16 / 9', borderRadius: 1, bgcolor: 'common.black' }}
      />
      <Link href={video.url} target="_blank" rel="noopener noreferrer" aria-label={t('result.openVideo')}>
        <OpenInNew fontSize="small" />
      </Link>
    </Stack>
  );
}

/** What a finished task produced: Suno songs with player and cover, lyrics behind a button, Kling videos. */
export function TaskResult({ task, onLyrics }: { task: AsyncTaskView; onLyrics(task: AsyncTaskView): void }) {
  const { t } = useTranslation('task');
  const testId = `task-result-${task.id}`;
  if (task.platform === 'suno' && task.action === 'LYRICS') {
    if (!sunoLyrics(task.data)) return <Muted />;
    return (
      <Button
        size="small"
        startIcon={<LyricsOutlined />}
        onClick={() => onLyrics(task)}
        data-testid={`${testId}-lyrics`}
      >
        {t('result.lyrics')}
      </Button>
    );
  }
  const clips = task.platform === 'suno' ? sunoClips(task.data) : [];
  const videos = task.platform === 'kling' ? klingVideos(task.data) : [];
  if (clips.length === 0 && videos.length === 0) return <Muted />;
  return (
    <Stack spacing={1} sx={{ py: 0.5 }}>
      {clips.map((clip, index) => (
        <Clip key={clip.id || index} clip={clip} testId={`${testId}-clip-${index}`} />
      ))}
      {videos.map((video, index) => (
        <Video key={video.id || index} video={video} testId={`${testId}-${index}`} />
      ))}
    </Stack>
  );
}
