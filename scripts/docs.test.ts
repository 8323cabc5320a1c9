/**
 * The README is the front door and docs/ the reference: the README stays short, links every other
 * page, and no link in either points at a file or a heading that does not exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pages = [
  'README.md',
  'SECURITY.md',
  'BENCHMARKS.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const read = (page: string) => readFileSync(join(root, page), 'utf8');

/** Markdown without its code blocks and inline code, where link-like text is not a link. */
const prose = (text: string) => text.replace(/^( *)```[\s\S]*?^\1```$/gm, '').replace(/`[^`\n]*`/g, '');

/** The targets of `[text](target)` links and `src`/`srcset` attributes, external ones left out. */
function localLinks(text: string): string[] {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? ''),
    ...[...body.matchAll(/\b(?:src|srcset)="([^"]+)"/g)].map((match) => match[1] ?? ''),
  ];
  return targets.filter((target) => !/^[a-z]+:/i.test(target));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  const headings = [...prose(read(page)).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1] ?? ''));
  const seen = new Map<string, number>();
  return new Set(
    headings.map((slug) => {
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      return count === 0 ? slug : `${slug}-${count}`;
    }),
  );
}

describe('the documentation', () => {
  it('keeps the README under 25 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThan(25 * 1024);
  });

  it('links every other page from the README', () => {
    const linked = new Set(localLinks(read('README.md')).map((target) => target.split('#')[0]));
    const missing = pages.filter((page) => page !== 'README.md' && !linked.has(page));
    expect(missing).toEqual([]);
  });

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const broken: string[] = [];
    for (const target of localLinks(read(page))) {
      const [path = '', fragment] = target.split('#');
      const file = path ? relative(root, join(root, dirname(page), path)) : page;
      if (!existsSync(join(root, file))) broken.push(`${target} (no file ${file})`);
      else if (fragment && file.endsWith('.md') && !anchors(file).has(fragment)) broken.push(`${target} (no heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('finds a broken link and a missing heading (so the check above can fail)', () => {
    const text = '[a](docs/nowhere.md) [b](docs/api.md#no-such-heading) [c](docs/api.md#getting-an-access-token)';
    const targets = localLinks(text);
    expect(targets).toHaveLength(3);
    expect(existsSync(join(root, 'docs/nowhere.md'))).toBe(false);
    expect(anchors('docs/api.md').has('no-such-heading')).toBe(false);
    expect(anchors('docs/api.md').has('getting-an-access-token')).toBe(true);
  });
});
