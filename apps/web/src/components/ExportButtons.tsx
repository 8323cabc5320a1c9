import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { EXPORT_FORMATS, type ExportFormat } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useMenuAnchor } from '../hooks/useMenuAnchor.js';

interface ExportMenuProps {
  /** The server's export address for a format, with the filters the list shows. */
  hrefOf(format: ExportFormat): string;
  testId: string;
}

/**
 * "Export" with a choice of format. Each choice is a plain link to the server's export: the
 * browser streams the file to disk, so no row of it passes through the page's memory.
 */
export function ExportMenu({ hrefOf, testId }: ExportMenuProps) {
  const { t } = useTranslation('common');
  const { show, close, menu } = useMenuAnchor(true);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<DownloadOutlined />}
        onClick={show}
        aria-haspopup="menu"
        data-testid={testId}
      >
        {t('export.button')}
      </Button>
      <Menu {...menu}>
        {EXPORT_FORMATS.map((format) => (
          <MenuItem
            key={format}
            component="a"
            href={hrefOf(format)}
            download
            onClick={close}
            data-testid={`${testId}-${format}`}
          >
            <ListItemText primary={t(`export.format.${format}`)} secondary={t(`export.hint.${format}`)} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** A quiet button that saves the table already in the page as a CSV file. */
export function CsvExportButton({ onExport, testId }: { onExport(): void; testId: string }) {
  const { t } = useTranslation('common');
  return (
    <Tooltip title={t('export.csvTable')}>
      <IconButton size="small" onClick={onExport} aria-label={t('export.csvTable')} data-testid={testId}>
        <DownloadOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
