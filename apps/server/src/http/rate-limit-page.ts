/**
 * The page a browser gets instead of the console when its address is over the per-address limit:
 * small and self-contained (no script, no file to fetch, since every further request would be
 * refused too), in the visitor's language, saying when to try again.
 */

/** The console's four languages; the page is written in each. */
export type PageLanguage = 'en_US' | 'zh_CN' | 'zh_HK' | 'ja_JP';

interface PageText {
  /** The `lang` attribute of the page. */
  tag: string;
  title: string;
  cause: (address: string) => string;
  retry: (seconds: number) => string;
  reload: string;
}

const TEXTS: Record<PageLanguage, PageText> = {
  en_US: {
    tag: 'en',
    title: 'Too many requests',
    cause: (address) => `Your address (${address}) sent too many requests to this site in a short time.`,
    retry: (seconds) => `Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
    reload: 'Reload the page',
  },
  zh_CN: {
    tag: 'zh-CN',
    title: '请求过于频繁',
    cause: (address) => `您的地址（${address}）在短时间内向本站发送了过多请求。`,
    retry: (seconds) => `请在 ${seconds} 秒后重试。`,
    reload: '重新加载页面',
  },
  zh_HK: {
    tag: 'zh-HK',
    title: '請求過於頻繁',
    cause: (address) => `您的地址（${address}）在短時間內向本網站發出了過多請求。`,
    retry: (seconds) => `請於 ${seconds} 秒後再試。`,
    reload: '重新載入頁面',
  },
  ja_JP: {
    tag: 'ja',
    title: 'リクエストが多すぎます',
    cause: (address) => `お使いのアドレス（${address}）から短時間に多数のリクエストが送信されました。`,
    retry: (seconds) => `${seconds} 秒後にもう一度お試しください。`,
    reload: 'ページを再読み込み',
  },
};

/** Which of the four languages a primary tag (with its region or script) stands for. */
function languageOfTag(tag: string): PageLanguage | undefined {
  const [primary, ...subtags] = tag.toLowerCase().split('-');
  if (primary === 'en') return 'en_US';
  if (primary === 'ja') return 'ja_JP';
  if (primary !== 'zh') return undefined;
  // Traditional characters: written so (Hant), or the regions that use them.
  const traditional = subtags.some(
    (subtag) => subtag === 'hant' || subtag === 'tw' || subtag === 'hk' || subtag === 'mo',
  );
  return traditional ? 'zh_HK' : 'zh_CN';
}

/**
 * The visitor's most preferred of the four languages by their browser's Accept-Language (quality
 * values honoured, ties in the order given). English when none of them is asked for: a visitor whose
 * browser asks for another language reads English more often than Chinese or Japanese.
 */
export function pageLanguageOf(acceptLanguage: string | undefined): PageLanguage {
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .slice(0, 32)
    .map((part, order) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const quality = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
      return { tag: tag.trim(), quality: quality === undefined ? 1 : Number(quality), order };
    })
    .filter((range) => range.tag && range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  for (const range of ranges) {
    const language = languageOfTag(range.tag);
    if (language) return language;
  }
  return 'en_US';
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The page's policy: its own inline style and nothing else. */
export const RATE_LIMIT_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function rateLimitPage(language: PageLanguage, address: string, retryAfterSeconds: number): string {
  const text = TEXTS[language];
  return `<!doctype html>
<html lang="${text.tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(text.title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f5f6f8;color:#1f2328}
main{max-width:32rem;margin:1.5rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 1rem}p{line-height:1.5}a{color:#1565c0}
@media (prefers-color-scheme:dark){body{background:#121212;color:#e6e6e6}main{background:#1e1e1e}a{color:#90caf9}}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.cause(address))}</p>
<p>${escapeHtml(text.retry(retryAfterSeconds))}</p>
<p><a href="">${escapeHtml(text.reload)}</a></p>
</main>
</body>
</html>
`;
}
