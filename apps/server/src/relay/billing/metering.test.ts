import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packRanks, type RankList, serialiseRanks } from './bpe.js';
import { loadTokenCounter } from './metering.js';

const load = createRequire(import.meta.url);
const library = load('gpt-tokenizer/encoding/o200k_base') as { countTokens(text: string): number };

/** Text of many kinds: prose, CJK, code, emoji, numbers, odd whitespace, long runs, rare bytes. */
function corpus(): string[] {
  const texts = [
    'Hello world, this is a test of the tokenizer.',
    '你好，世界。今日はいい天気ですね。안녕하세요, 세계! Привет, мир. مرحبا بالعالم',
    'function add(a, b) {\n  return a + b;\n}\n\t  spaces   and emoji 🎉🎉 👩‍👩‍👧‍👦 🇯🇵',
    "I'M SHOUTING, they're quiet; it'll be fine, we'd've known. DON'T.",
    '3.14159265358979 1234567890 12,345,678 0x1F 1e-9 ١٢٣ 一二三',
    '\r\n\r\n   \n\n\t\t\v\f  trailing   ',
    '-'.repeat(3000),
    'a'.repeat(5000),
    '<|endoftext|> is plain text here',
    'Ünïcödé çömbïnïng: e\u0301 a\u0308 ñ; ligatures ﬁ ﬂ; math ∑∫√∞ ≠ ≤; zero\u200bwidth',
    JSON.stringify({ messages: [{ role: 'user', content: 'What is 2+2?' }], tools: [{ type: 'function' }] }),
    '',
  ];
  // A deterministic spread of random code points, including rarely used scripts.
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  for (let sample = 0; sample < 40; sample++) {
    let text = '';
    for (let index = 0; index < 200; index++) {
      const pick = next() % 10;
      const code =
        pick < 5
          ? 32 + (next() % 95)
          : pick < 7
            ? 0x4e00 + (next() % 0x5000)
            : pick < 9
              ? 0x00a0 + (next() % 0x2000)
              : 0x1f300 + (next() % 0x300);
      text += String.fromCodePoint(code);
    }
    texts.push(text);
  }
  return texts;
}

describe('the o200k token counter', () => {
  const folder = mkdtempSync(join(tmpdir(), 'one-hub-ranks-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const texts = corpus().filter((text) => !text.includes('<|endoftext|>'));

  it('counts exactly what the library counts, from the packed file and from the library table', () => {
    const ranks = (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankList }).default;
    const file = join(folder, 'o200k_base.bin');
    writeFileSync(file, serialiseRanks(packRanks(ranks)));
    const fromFile = loadTokenCounter(pathToFileURL(file));
    const fromTable = loadTokenCounter(pathToFileURL(join(folder, 'missing.bin')));
    for (const text of texts) {
      const expected = library.countTokens(text);
      expect(fromFile(text), text.slice(0, 40)).toBe(expected);
      expect(fromTable(text), text.slice(0, 40)).toBe(expected);
    }
    expect(fromFile(texts[0] ?? '')).toBeGreaterThan(5);
  });

  it('counts text that looks like a special token as ordinary text instead of failing', () => {
    const count = loadTokenCounter(pathToFileURL(join(folder, 'missing.bin')));
    expect(() => library.countTokens('<|endoftext|>')).toThrow();
    expect(count('a <|endoftext|> b')).toBeGreaterThan(4);
  });

  it('refuses a truncated table file', () => {
    const ranks = (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankList }).default;
    const file = join(folder, 'short.bin');
    writeFileSync(file, serialiseRanks(packRanks(ranks)).subarray(0, 1000));
    expect(() => loadTokenCounter(pathToFileURL(file))).toThrow(/truncated/);
  });
});
