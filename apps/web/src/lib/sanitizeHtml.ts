import DOMPurify from 'dompurify';

/**
 * Elements removed from administrator HTML on top of DOMPurify's defaults (which already drop
 * <script>, <iframe>, <object>, <embed>, event-handler attributes and `javascript:` URLs).
 * <style> would restyle the whole console; forms and their fields could imitate the sign-in.
 */
const FORBIDDEN_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object'];
const FORBIDDEN_ATTRIBUTES = ['action', 'formaction'];

let hooksInstalled = false;

/** Links that open elsewhere get no handle on this page (`window.opener`). */
function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('target')) node.setAttribute('rel', 'noopener noreferrer');
  });
}

/**
 * Administrator-set HTML (home page, about page, footer) made safe to insert into the console:
 * ordinary markup, links (http, https, mailto, tel, relative) and images stay; scripts, frames,
 * plugins, event handlers, `javascript:`/`data:` links, <style> and forms are removed.
 */
export function sanitizeHtml(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
    // An administrator's link may open in a new tab; the hook above adds its rel.
    ADD_ATTR: ['target'],
    ALLOW_DATA_ATTR: false,
  });
}
