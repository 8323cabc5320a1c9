import { describe, expect, it } from 'vitest';
import { codesAsCsv, codesAsLines, codesAsText, exportFileName } from './codesExport.js';

const keys = ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210'];

describe('created codes export', () => {
  it('copies one code per line', () => {
    expect(codesAsLines(keys)).toBe(`${keys[0]}\n${keys[1]}`);
    expect(codesAsText(keys)).toBe(`${keys[0]}\n${keys[1]}\n`);
  });

  it('writes a CSV with a header and the name and quota of each code', () => {
    expect(codesAsCsv({ keys, name: 'Spring', quota: 500000 })).toBe(
      `code,name,quota\r\n${keys[0]},Spring,500000\r\n${keys[1]},Spring,500000\r\n`,
    );
  });

  it('encodes names with the shared csvField: quoted and defused', () => {
    expect(codesAsCsv({ keys: [keys[0] ?? ''], name: 'a, "b"', quota: 1 })).toContain(',"a, ""b""",');
    expect(codesAsCsv({ keys: [keys[0] ?? ''], name: '+1 gift', quota: 1 })).toContain(",'+1 gift,");
  });

  it('names the file after the batch and the time, with safe characters only', () => {
    const at = new Date(2025, 0, 2, 3, 4, 5);
    expect(exportFileName('Spring sale', 'txt', at)).toBe('redemption-codes-Spring-sale-20250102-030405.txt');
    expect(exportFileName('新年/礼品', 'csv', at)).toBe('redemption-codes-新年-礼品-20250102-030405.csv');
    expect(exportFileName(' ../ ', 'csv', at)).toBe('redemption-codes-20250102-030405.csv');
  });
});
