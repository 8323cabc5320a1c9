import { useTranslation } from 'react-i18next';
import { type WordSetName, type Words, wordSets, wordsOf } from './wordSets.js';

/**
 * The texts of a shared key set in one screen's namespace. Give both arguments as literals: the key
 * check reads them from the call to verify that the namespace has every key of the set.
 */
export function useWords<Name extends WordSetName>(namespace: string, set: Name): Words<(typeof wordSets)[Name]> {
  const { t } = useTranslation(namespace);
  return wordsOf(wordSets[set], (key) => t(key));
}
