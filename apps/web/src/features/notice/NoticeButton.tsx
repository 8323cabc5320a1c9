import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useNotice } from './NoticeProvider.js';

export function NoticeButton() {
  const { t } = useTranslation('shell');
  const { openNotice, hasNotice } = useNotice();
  return (
    <Tooltip title={t('topBar.notice')}>
      <IconButton color="inherit" onClick={openNotice} aria-label={t('topBar.notice')} data-testid="notice-button">
        <Badge color="primary" variant="dot" invisible={!hasNotice}>
          <CampaignOutlined fontSize="small" />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
