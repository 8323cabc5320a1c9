import { optionDefinitions } from '@one-hub/contracts';

/** The check that a translated screen shows no English interface words. */

/** Product, vendor and protocol names that stay in Latin letters in every language. */
export const PRODUCT_NAMES = [
  'OpenAI',
  'Azure',
  'Anthropic',
  'Claude',
  'Gemini',
  'Google',
  'Vertex',
  'Bedrock',
  'Midjourney',
  'GitHub',
  'OIDC',
  'OAuth',
  'OpenID',
  'Lark',
  'WeChat',
  'Telegram',
  'Turnstile',
  'Cloudflare',
  'STARTTLS',
  'SMTP',
  'JSON',
  'HTML',
  'Markdown',
  'HTTP',
  'HTTPS',
  // Not words of the interface but literals and names the admin types or presses:
  'true',
  'false',
  'Enter',
  // The e-mail header ("From address" in the Japanese SMTP help).
  'From',
  // The content-safety tool's name, the stored value of SafeToolName.
  'Keyword',
  // The unit models are billed in: the Chinese texts keep it as the term of art ("Token 数").
  'Token',
  'Tokens',
];

/** Multi-word names of products and of the credentials their consoles hand out. */
export const PRODUCT_TERMS = [
  'OpenID Connect',
  'Uptime Kuma',
  // Cloudflare's product (the CFWorkerImage settings the reference's console sends).
  'Cloudflare Worker',
  'Turnstile Site Key',
  'Turnstile Secret Key',
  // OAuth / OpenID Connect names of fields, as the providers' consoles label them.
  'Client ID',
  'Client Secret',
  'App Secret',
  'ID Token',
  'Issuer',
  'Scopes',
  // Analytics services named in the AnalyticsCode help, and the standard behind passkeys.
  'Analytics',
  'Plausible',
  'Umami',
  'WebAuthn',
  // Literals of those helps: the HTML element kept, and the one host WebAuthn allows over http.
  'script',
  'localhost',
];

/**
 * The English words (4+ Latin letters) left in `text` once the data shown on the screen is taken
 * out, each with the line it is on. Anything with a digit or inner punctuation is an id, a model
 * name, a URL, an amount or a masked key; `{placeholder}` names are ids too.
 */
export function englishWords(text: string, data: string[], allowed: ReadonlySet<string>): string[] {
  const values = [...data].filter(Boolean).sort((left, right) => right.length - left.length);
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    let rest = line.replace(/\{[^}]*\}/g, ' ');
    for (const value of values) rest = rest.split(value).join(' ');
    // An ellipsis inside a run is a masked secret (`5bd53e…effb`); at its end, a text cut short.
    for (const run of rest.match(/[A-Za-z0-9_\-./:@#%+=?&$,…]+/g) ?? []) {
      const word = run.replace(/^[-_./:@#%+=?&$,…]+|[-_./:@#%+=?&$,…]+$/g, '');
      if (/[^A-Za-z]/.test(word) || word.length < 4) continue;
      if (!allowed.has(word.toLowerCase())) found.add(`${word} — «${line.trim().slice(0, 120)}»`);
    }
  }
  return [...found].sort();
}

/** The words allowed to stay English: product names and the options' keys, in lower case. */
export function allowedWords(): ReadonlySet<string> {
  return new Set([...PRODUCT_NAMES, ...Object.keys(optionDefinitions)].map((word) => word.toLowerCase()));
}
