import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import type { ScreenId } from '../app/menu/menu.js';
import { StatusScreen } from './StatusScreen.js';

/** The shared placeholder for a screen that is not built yet; its title comes from `shell:screens.<id>`. */
export function ComingSoon({ screen }: { screen: ScreenId }) {
  const { t } = useTranslation();
  return (
    <StatusScreen
      testId="coming-soon"
      badge={<ConstructionOutlined fontSize="inherit" />}
      title={t('status.comingSoonTitle', { screen: t(`shell:screens.${screen}`) })}
      description={t('status.comingSoonDescription')}
    />
  );
}
