import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { strings } from '../i18n/strings.js';
import { useColorMode } from './ColorModeProvider.js';

export function ColorModeToggle() {
  const { mode, toggle } = useColorMode();
  const label = mode === 'light' ? strings.theme.switchToDark : strings.theme.switchToLight;
  return (
    <Tooltip title={label}>
      <IconButton onClick={toggle} aria-label={label} color="inherit">
        {mode === 'light' ? <DarkModeOutlined /> : <LightModeOutlined />}
      </IconButton>
    </Tooltip>
  );
}
