import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { groupDisplayName, type NamedGroup } from '../lib/groupName.js';

/** A function naming groups for display, in the current language (see lib/groupName.ts). */
export function useGroupName(): (group: NamedGroup | undefined, symbol?: string) => string {
  const { t } = useTranslation('common');
  const translatedDefault = t('defaultGroupName');
  return useCallback(
    (group, symbol) => groupDisplayName(group, symbol ?? group?.symbol ?? '', translatedDefault),
    [translatedDefault],
  );
}
