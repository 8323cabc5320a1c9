import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCatalogues } from './checks/catalogues.js';
import { findLiteralStrings } from './checks/literalStrings.js';
import { findTranslationKeys, keyProblems } from './checks/translationKeys.js';
import { defaultLanguage } from './languages.js';

const sourceRoot = fileURLToPath(new URL('../', import.meta.url));

function sourceFiles(directory: string, extensions: string[]): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, extensions);
    const wanted = extensions.some((extension) => entry.name.endsWith(extension)) && !entry.name.includes('.test.');
    return wanted ? [path] : [];
  });
}

describe('no user-visible literal text in components', () => {
  it('every .tsx file takes its visible text from translations', () => {
    const problems = sourceFiles(sourceRoot, ['.tsx']).flatMap((path) =>
      findLiteralStrings(readFileSync(path, 'utf8'), path).map(
        (finding) => `${relative(sourceRoot, path)}:${finding.line} ${finding.where}: "${finding.text}"`,
      ),
    );
    expect(problems).toEqual([]);
  });

  // The check itself must catch what it promises to catch.
  it.each([
    ['JSX text', 'const x = <p>Hello</p>;'],
    ['CJK JSX text', 'const x = <p>你好</p>;'],
    ['a visible prop', 'const x = <TextField label="Name" />;'],
    ['aria-label', 'const x = <IconButton aria-label="Close" />;'],
    ['a literal in braces', 'const x = <Tooltip title={"Copy"}><span /></Tooltip>;'],
    ['a conditional branch', 'const x = <b>{busy ? "Saving" : t("save")}</b>;'],
    ['a fallback', 'const x = <b>{name || "Anonymous"}</b>;'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: this string is TSX source under test.
    ['template text', 'const x = <img alt={`Photo of ${name}`} />;'],
    ['a children prop', 'const x = <Button children="Save" />;'],
    ['an object property', 'const columns = [{ field: "x", headerName: "Created" }];'],
  ])('flags %s', (_what, source) => {
    expect(findLiteralStrings(source)).not.toEqual([]);
  });

  it.each([
    ['a translation', '<p>{t("home.title")}</p>'],
    ['punctuation and numbers', '<p>404 · © {year} / 2</p>'],
    ['a comparison', '<Tooltip title={mode === "light" ? t("a") : t("b")}><span /></Tooltip>'],
    ['non-visible props', '<Box component="span" data-testid="user-name" className="x" href="https://x" />'],
  ])('accepts %s', (_what, code) => {
    expect(findLiteralStrings(`const x = ${code};`)).toEqual([]);
  });
});

describe('translation keys used in code exist', () => {
  const catalogues = readCatalogues()[defaultLanguage] ?? {};

  it('every literal t() key, and every key of a useWords set, is in the zh_CN catalogue', () => {
    const problems = sourceFiles(sourceRoot, ['.ts', '.tsx']).flatMap((path) =>
      keyProblems(readFileSync(path, 'utf8'), catalogues, path).map(
        (problem) => `${relative(sourceRoot, path)}:${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  // The check itself must catch a key missing from a namespace, whether written out or part of a shared set.
  it.each([
    ['a literal key', "function A() { const { t } = useTranslation('shell'); return t('nav.nowhere'); }"],
    ['a shared set', "function A() { return useWords('log', 'list'); }"],
    ['a set named by a variable', "function A() { return useWords('shell', set); }"],
    ['a namespace named by a variable', "function A() { return useWords(namespace, 'list'); }"],
  ])('flags a missing key through %s', (_what, source) => {
    expect(keyProblems(source, catalogues)).not.toEqual([]);
  });

  it('expands a useWords call into the keys of its set', () => {
    const keys = findTranslationKeys("useWords('user', 'list')").map((use) => `${use.namespace}:${use.key}`);
    expect(keys).toContain('user:searchPlaceholder');
    expect(keys).toContain('user:empty.noMatch');
    expect(keyProblems("function A() { return useWords('user', 'list'); }", catalogues)).toEqual([]);
  });

  it('resolves the namespace from the enclosing useTranslation call', () => {
    const source = `
      function A() { const { t } = useTranslation('shell'); return t('nav.home'); }
      function B() { const { t } = useTranslation(); return t('retry') + t('auth:login.title'); }`;
    expect(findTranslationKeys(source).map((use) => `${use.namespace}:${use.key}`)).toEqual([
      'shell:nav.home',
      'common:retry',
      'auth:login.title',
    ]);
  });
});
