import type { Words, wordSets } from '../../i18n/wordSets.js';

/**
 * The props of a create/edit dialog's buttons: cancel, and create or save, with `data-testid`s
 * `<testId>-cancel` and `<testId>-submit`. `words` are the screen's: `useWords('<namespace>', 'formDialog')`.
 */
export function dialogButtons(testId: string, creating: boolean, words: Words<typeof wordSets.formDialog>) {
  return {
    testId,
    cancelLabel: words.cancel,
    submitLabel: creating ? words.create : words.save,
    cancelTestId: `${testId}-cancel`,
    submitTestId: `${testId}-submit`,
  };
}
