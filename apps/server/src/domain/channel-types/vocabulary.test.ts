import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { providerRegistry } from './registry.js';

/**
 * One channel-type vocabulary: numeric type ids are written only in the registry (registry.ts and
 * its data file compatible.ts). Everything else looks the entry up. This scans the source of the
 * server, the console and the contracts for the ways a type id has been spelled before.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const SCANNED = ['apps/server/src', 'apps/web/src', 'packages/contracts/src'];
const ALLOWED = new Set([
  'apps/server/src/domain/channel-types/registry.ts',
  'apps/server/src/domain/channel-types/compatible.ts',
]);
/** The importer translates one-api's and new-api's numbering, another vocabulary, onto the registry's. */
const FOREIGN_VOCABULARY = 'apps/server/src/import/profiles/';

const typeIds = new Set(providerRegistry.keys());
/** Words that name a type: slugs and the words of names and owners, lower case, letters and digits only. */
const typeWords = new Set(
  [...providerRegistry.values()].flatMap((provider) =>
    [provider.slug, provider.name, provider.owner ?? '', ...provider.name.split(/[\s()]+/)]
      .map((word) => word.toLowerCase().replace(/[^a-z0-9]/g, ''))
      .filter((word) => word.length >= 3),
  ),
);
const namesType = (name: string) => {
  const word = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return typeWords.has(word) || [...typeWords].some((known) => known.startsWith(word) && word.length >= 4);
};
const numbers = (text: string) => [...text.matchAll(/\d+/g)].map((match) => Number(match[0]));

/** Each rule finds one spelling of a type id and says whether the match really is one. */
const rules: Array<{ name: string; pattern: RegExp; isTypeId(match: RegExpMatchArray): boolean }> = [
  {
    name: 'a constant named after a type',
    pattern: /\bconst\s+(\w+)\s*(?::\s*\w+\s*)?=\s*(\d+)\s*;/g,
    isTypeId: (match) => typeIds.has(Number(match[2])) && namesType(match[1] ?? ''),
  },
  {
    name: 'a comparison of a channel type with a number',
    pattern: /\b(?:channelType|channel_type|(?:channel|provider|target|row)\w*\.type)\s*(?:[!=]==?|\?\?)\s*(\d+)/g,
    isTypeId: (match) => typeIds.has(Number(match[1])),
  },
  {
    name: 'a type id as a field value',
    pattern: /\b(?:channelType|channel_type)\s*:\s*(\d+)/g,
    isTypeId: (match) => typeIds.has(Number(match[1])),
  },
  {
    name: 'a set or list of type ids',
    pattern: /\bconst\s+(\w*(?:type|upstream|provider|vendor)\w*)\b[^=;\n]*=\s*(?:new Set\()?\[([\d\s,]+)\]/gi,
    isTypeId: (match) => numbers(match[2] ?? '').some((id) => typeIds.has(id)),
  },
  {
    name: 'a table keyed by type id',
    pattern: /\[\s*(\d+)\s*,\s*(?:'([^']*)'|(\w*(?:Adapter|adapter)\b))/g,
    isTypeId: (match) => typeIds.has(Number(match[1])) && (match[3] !== undefined || namesType(match[2] ?? '')),
  },
  {
    name: 'a type id passed to a registry or adapter lookup',
    pattern: /\b(?:providerByType|chatAdapterFor|registerChatAdapter|hasBalanceApi)\(\s*(\d+)/g,
    isTypeId: (match) => typeIds.has(Number(match[1])),
  },
  {
    name: 'a case of a switch on a type',
    pattern: /switch\s*\(\s*[\w.]*(?:type|Type)\s*\)\s*\{([^}]*)\}/g,
    isTypeId: (match) =>
      numbers((match[1] ?? '').match(/case\s+\d+\s*:/g)?.join(' ') ?? '').some((id) => typeIds.has(id)),
  },
];

function findTypeIds(text: string): string[] {
  const found: string[] = [];
  for (const rule of rules) {
    for (const match of text.matchAll(rule.pattern)) {
      if (rule.isTypeId(match)) found.push(`${rule.name}: ${match[0].replace(/\s+/g, ' ').slice(0, 80)}`);
    }
  }
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts');
    return isSource ? [path] : [];
  });
}

describe('one channel-type vocabulary', () => {
  it('recognises the spellings of type ids the code used before the registry held them all', () => {
    const before = [
      'const AZURE = 3;',
      'const Midjourney = 34;',
      'if (channel.type === AZURE_V1 || channel.type === 55) {}',
      'const RESPONSES_UPSTREAMS: ReadonlySet<number> = new Set([1, 3, 55]);',
      'const OPENAI_FORMAT_TYPES = new Set([3, 55]);',
      'const adapters = new Map([[14, anthropicAdapter], [25, geminiAdapter]]);',
      "const OWNER_NAMES = [[1, 'OpenAI'], [17, 'Qwen']];",
      '{ type: context.channelType ?? 1, key }',
      'owned_by: providerByType(14)?.name',
      'switch (channel.type) { case 14: return 1; default: return 0; }',
      'perToken({ channel_type: 28 })',
    ];
    for (const line of before) expect(findTypeIds(line), line).not.toEqual([]);
  });

  it('leaves numbers that are not type ids alone', () => {
    const unrelated = [
      'const MAX_RETRIES = 3;',
      'const TOKENS_PER_MESSAGE = 3;',
      'if (order.type === 2) pay();',
      'const channelPreCosts = [1, 2, 3] as const;',
      'switch (status) { case 401: break; }',
      'if (values.type === 0) return;',
    ];
    for (const line of unrelated) expect(findTypeIds(line), line).toEqual([]);
  });

  it('finds no numeric type id outside the registry in the server, the console or the contracts', () => {
    const offenders: string[] = [];
    for (const directory of SCANNED) {
      for (const file of sourceFiles(join(ROOT, directory))) {
        const path = relative(ROOT, file);
        if (ALLOWED.has(path) || path.startsWith(FOREIGN_VOCABULARY)) continue;
        for (const found of findTypeIds(readFileSync(file, 'utf8'))) offenders.push(`${path}: ${found}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
