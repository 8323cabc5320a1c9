import { ManualCopyToast } from '../components/ManualCopyToast.js';
import { i18n } from '../i18n/index.js';
import { notify } from './notify.js';

/** Older browsers and plain-http pages have no async clipboard; a hidden textarea still works there. */
function copyWithTextarea(text: string): boolean {
  const textarea = document.createElement('textarea');
  textarea.value = text;
  textarea.setAttribute('readonly', '');
  textarea.style.position = 'fixed';
  textarea.style.opacity = '0';
  document.body.appendChild(textarea);
  textarea.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    textarea.remove();
  }
}

async function writeClipboard(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused: try the textarea way below.
    }
  }
  return copyWithTextarea(text);
}

/**
 * Copies `text` and says so: '复制{thing}成功！' on success (`thing` is an already translated noun,
 * e.g. t('token:key')); on failure a toast that stays, showing the text to copy by hand.
 */
export async function copyToClipboard(text: string, thing?: string): Promise<boolean> {
  const copied = await writeClipboard(text);
  if (copied) {
    notify.success(thing ? i18n.t('common:copy.success', { thing }) : i18n.t('common:copy.successPlain'));
  } else {
    const key = `manual-copy:${text}`;
    notify.persistent(<ManualCopyToast text={text} onDismiss={() => notify.dismiss(key)} />, 'warning', key);
  }
  return copied;
}
