import BrokenImageOutlined from '@mui/icons-material/BrokenImageOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Muted } from '../task/TaskCells.js';
import { imageProxyUrl } from './midjourneyQuery.js';

interface ImageThumbProps {
  mjId: string;
  /** The task has a result picture (the proxy reported an image URL). */
  hasImage: boolean;
  onOpen(): void;
  testId: string;
}

/** The result picture, small, loaded through the gateway; a click opens the preview. */
export function ImageThumb({ mjId, hasImage, onOpen, testId }: ImageThumbProps) {
  const { t } = useTranslation('midjourney');
  const [broken, setBroken] = useState(false);
  if (!hasImage) return <Muted />;
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
        src={imageProxyUrl(mjId)}
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
