import { describe, expect, it } from 'vitest';
import { csvDocument, csvField } from './csv.js';

describe('csvField', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(42)).toBe('42');
    expect(csvField(-5)).toBe('-5');
    expect(csvField('')).toBe('');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('defuses text a spreadsheet would run as a formula, quoting it too when needed', () => {
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('+1 gift')).toBe("'+1 gift");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('@x,y')).toBe('"\'@x,y"');
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('csvDocument', () => {
  it('writes one CRLF-ended line per row, the header first', () => {
    expect(
      csvDocument([
        ['name', 'quota'],
        ['ann, bob', 3],
      ]),
    ).toBe('name,quota\r\n"ann, bob",3\r\n');
    expect(csvDocument([])).toBe('');
  });
});
