import CloudDownloadOutlined from '@mui/icons-material/CloudDownloadOutlined';
import CompareArrows from '@mui/icons-material/CompareArrows';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { PriceBody } from '@one-hub/contracts';
import { type ChangeEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { parsePriceFile } from './priceCheck.js';

/** Where the price list to compare with comes from: the built-in one, a file, or the update service. */
export type Source = 'default' | 'file' | 'service';
/** A price file read in the browser: its prices, or why it could not be used. */
export type Upload = { name: string; prices: PriceBody[] } | { name: string; errors: string[] };

function FilePicker({ upload, onUpload }: { upload: Upload | null; onUpload(upload: Upload): void }) {
  const { t } = useTranslation('pricing');
  const input = useRef<HTMLInputElement>(null);
  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = parsePriceFile(await file.text(), (key, options) => t(key, options));
    onUpload(result.ok ? { name: file.name, prices: result.prices } : { name: file.name, errors: result.errors });
  };
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="outlined"
          startIcon={<UploadFileOutlined />}
          onClick={() => input.current?.click()}
          data-testid="pricing-check-choose"
        >
          {t('check.chooseFile')}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(event) => void read(event)}
          data-testid="pricing-check-file"
        />
        <Typography
          variant="body2"
          sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
          data-testid="pricing-check-file-name"
        >
          {upload ? upload.name : t('check.fileHint')}
        </Typography>
      </Stack>
      {upload && 'errors' in upload && (
        <Alert severity="error" data-testid="pricing-check-file-error">
          <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('check.errors.title')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {upload.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </Box>
        </Alert>
      )}
    </Stack>
  );
}

interface CheckSourceCardProps {
  source: Source;
  onSource(source: Source): void;
  upload: Upload | null;
  onUpload(upload: Upload): void;
  /** The update service's address; '' when none is set, and the service is not offered. */
  serviceUrl: string;
  /** The service's price list query. */
  service: { isFetching: boolean; refetch(): unknown };
}

/** The update check's first card: which price list to compare the stored prices with. */
export function CheckSourceCard({ source, onSource, upload, onUpload, serviceUrl, service }: CheckSourceCardProps) {
  const { t } = useTranslation('pricing');
  return (
    <SectionCard
      icon={<CompareArrows />}
      title={t('check.sourceTitle')}
      subtitle={t('check.sourceSubtitle')}
      fill="none"
      testId="pricing-check-source"
    >
      <Stack spacing={2}>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={source}
          onChange={(_event, next: Source | null) => next && onSource(next)}
          sx={{ flexWrap: 'wrap' }}
        >
          <ToggleButton value="default" data-testid="pricing-check-source-default">
            <Inventory2Outlined fontSize="small" sx={{ mr: 1 }} />
            {t('check.sourceDefault')}
          </ToggleButton>
          <ToggleButton value="file" data-testid="pricing-check-source-file">
            <UploadFileOutlined fontSize="small" sx={{ mr: 1 }} />
            {t('check.sourceFile')}
          </ToggleButton>
          {serviceUrl && (
            <ToggleButton value="service" data-testid="pricing-check-source-service">
              <CloudDownloadOutlined fontSize="small" sx={{ mr: 1 }} />
              {t('check.sourceService')}
            </ToggleButton>
          )}
        </ToggleButtonGroup>
        {source === 'file' && <FilePicker upload={upload} onUpload={onUpload} />}
        {source === 'service' && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Button
              variant="outlined"
              startIcon={<CloudDownloadOutlined />}
              loading={service.isFetching}
              onClick={() => void service.refetch()}
              data-testid="pricing-check-service-refetch"
            >
              {t('check.serviceRefetch')}
            </Button>
            <Typography
              variant="body2"
              sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
              data-testid="pricing-check-service-url"
            >
              {t('check.serviceHint', { url: serviceUrl })}
            </Typography>
          </Stack>
        )}
      </Stack>
    </SectionCard>
  );
}
