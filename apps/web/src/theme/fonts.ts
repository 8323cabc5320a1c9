import type { Language } from '../i18n/languages.js';

const latin = ['system-ui', '-apple-system', '"Segoe UI"', 'Roboto', '"Helvetica Neue"', 'Arial'];

// System CJK fonts only (no web-font download). The language's own family comes first so that
// shared Han characters take the glyph shapes its readers expect.
const simplifiedChinese = [
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  '"Noto Sans SC"',
];
const traditionalChinese = [
  '"PingFang HK"',
  '"PingFang TC"',
  '"Microsoft JhengHei"',
  '"Noto Sans CJK HK"',
  '"Noto Sans CJK TC"',
  '"Noto Sans TC"',
];
const japanese = [
  '"Hiragino Sans"',
  '"Hiragino Kaku Gothic ProN"',
  '"Yu Gothic UI"',
  '"Yu Gothic"',
  'Meiryo',
  '"Noto Sans CJK JP"',
  '"Noto Sans JP"',
];

const cjkOrder: Record<Language, string[][]> = {
  zh_CN: [simplifiedChinese, traditionalChinese, japanese],
  en_US: [simplifiedChinese, traditionalChinese, japanese],
  zh_HK: [traditionalChinese, simplifiedChinese, japanese],
  ja_JP: [japanese, simplifiedChinese, traditionalChinese],
};

export function fontStackFor(language: Language): string {
  return [...latin, ...cjkOrder[language].flat(), '"Apple Color Emoji"', '"Segoe UI Emoji"', 'sans-serif'].join(', ');
}

export const monospaceFontStack =
  'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace';
