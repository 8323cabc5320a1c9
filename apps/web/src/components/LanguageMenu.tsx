import CheckRounded from '@mui/icons-material/CheckRounded';
import TranslateRounded from '@mui/icons-material/TranslateRounded';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useMenuAnchor } from '../hooks/useMenuAnchor.js';
import { currentLanguage, languages, setLanguage } from '../i18n/index.js';

/** The language picker; a choice is saved under `appLanguage`. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const { show, close, menu } = useMenuAnchor(true);
  const active = currentLanguage();

  return (
    <>
      <Tooltip title={t('language.label')}>
        <IconButton
          color="inherit"
          aria-label={t('language.label')}
          aria-haspopup="menu"
          onClick={show}
          data-testid="language-menu"
        >
          <TranslateRounded fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu {...menu}>
        {languages.map((language) => (
          <MenuItem
            key={language}
            selected={language === active}
            data-testid={`language-${language}`}
            onClick={() => {
              setLanguage(language);
              close();
            }}
          >
            <ListItemText>{t(`language.${language}`)}</ListItemText>
            <ListItemIcon sx={{ justifyContent: 'flex-end', visibility: language === active ? 'visible' : 'hidden' }}>
              <CheckRounded fontSize="small" />
            </ListItemIcon>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
