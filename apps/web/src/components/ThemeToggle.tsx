import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useAppActions, useAppState } from '../app/state/AppStateProvider.js';

/** Switches between the light and dark theme; the choice is saved under `theme`. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const mode = useAppState().customization.theme;
  const { toggleTheme } = useAppActions();
  const label = mode === 'light' ? t('theme.toDark') : t('theme.toLight');
  return (
    <Tooltip title={label}>
      <IconButton onClick={toggleTheme} aria-label={label} color="inherit" data-testid="theme-toggle" data-mode={mode}>
        {mode === 'light' ? <DarkModeOutlined fontSize="small" /> : <LightModeOutlined fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}
