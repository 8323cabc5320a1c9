import BrokenImageOutlined from '@mui/icons-material/BrokenImageOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Muted } from '../../components/tasks/TaskCells.js';

interface ImageThumbProps {
  mjId: string;
  /**
   * The result picture through the gateway (the task's signed `image_src`), '' when there is none.
   * The console never loads `image_url` itself: the proxy's host is often unreachable from browsers.
   */
  src: string;
  onOpen(): void;
  testId: string;
}

/** The result picture, small, loaded through the gateway; a click opens the preview. */
export function ImageThumb({ mjId, src, onOpen, testId }: ImageThumbProps) {
  const { t } = useTranslation('midjourney');
  const [broken, setBroken] = useState(false);
  if (!src) return <Muted />;
  if (broken) {
    return (
      <Box
        title={t('image.failed')}
        sx={{ width: 56, height: 56, display: 'grid', placeItems: 'center', color: 'text.disabled' }}
        data-testid={`${testId}-broken`}
      >
        <BrokenImageOutlined />
      </Box>
    );
  }
  return (
    <ButtonBase
      onClick={onOpen}
      aria-label={t('image.open')}
      data-testid={`${testId}-open`}
      sx={{ borderRadius: 1.5, overflow: 'hidden', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
    >
      <Box
        component="img"
        src={src}
        alt={t('image.alt', { id: mjId })}
        loading="lazy"
        onError={() => setBroken(true)}
        data-testid={testId}
        sx={{
          width: 56,
          height: 56,
          objectFit: 'cover',
          display: 'block',
          bgcolor: 'action.hover',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1.5,
        }}
      />
    </ButtonBase>
  );
}
