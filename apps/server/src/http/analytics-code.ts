import { scriptHash } from './security-headers.js';

/**
 * The AnalyticsCode setting (an administrator's analytics snippet: Google Analytics, Umami,
 * Plausible…) as it goes into the console page. Only its `<script>` elements are kept, rebuilt
 * from a few known attributes, so the setting cannot add markup, event handlers or styles to
 * every page; each kept script is allowed by the page's Content-Security-Policy and by nothing
 * wider: an inline one by its hash, an external one by its https origin (which may also receive
 * the beacons it sends).
 */
export interface AnalyticsSnippet {
  /** The rebuilt script elements, placed at the end of the page's body. */
  html: string;
  /** `'sha256-…'` sources of the inline scripts. */
  scriptHashes: string[];
  /** https origins the external scripts come from. */
  origins: string[];
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const ATTRIBUTE = /([a-zA-Z][\w:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const FLAGS = new Set(['async', 'defer']);
const KEPT_VALUES = /^(id|crossorigin|referrerpolicy|type|data-[\w-]+)$/;

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function attributesOf(text: string): Map<string, string | true> {
  const attributes = new Map<string, string | true>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? match[3] ?? match[4];
    attributes.set(name, value === undefined ? true : value);
  }
  return attributes;
}

/** An https address, or undefined: a script from plain http or another scheme is dropped. */
function httpsUrl(value: string | true | undefined): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function rebuild(attributes: Map<string, string | true>, src: URL | undefined): string {
  const parts = src ? [`src="${escapeAttribute(src.href)}"`] : [];
  for (const [name, value] of attributes) {
    if (FLAGS.has(name) && src) parts.push(name);
    else if (KEPT_VALUES.test(name) && typeof value === 'string') {
      // Only classic scripts: a module or JSON type would change how the kept text is read.
      if (name === 'type' && !/^(text|application)\/javascript$/i.test(value)) continue;
      parts.push(`${name}="${escapeAttribute(value)}"`);
    }
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

export function analyticsSnippet(code: string): AnalyticsSnippet {
  const snippet: AnalyticsSnippet = { html: '', scriptHashes: [], origins: [] };
  const elements: string[] = [];
  for (const match of code.matchAll(SCRIPT)) {
    const attributes = attributesOf(match[1] ?? '');
    const body = match[2] ?? '';
    if (attributes.has('src')) {
      const src = httpsUrl(attributes.get('src'));
      if (!src) continue;
      elements.push(`<script${rebuild(attributes, src)}></script>`);
      if (!snippet.origins.includes(src.origin)) snippet.origins.push(src.origin);
    } else if (body.trim() !== '') {
      elements.push(`<script${rebuild(attributes, undefined)}>${body}</script>`);
      snippet.scriptHashes.push(scriptHash(body));
    }
  }
  snippet.html = elements.join('\n');
  return snippet;
}
