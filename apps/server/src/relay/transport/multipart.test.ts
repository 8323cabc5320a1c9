import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { boundaryOf, hasFile, headerParameters, parseMultipart, withField } from './multipart.js';

const BOUNDARY = '----formdata-test-7f3a';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x0d, 0x0a, 0x2d, 0x2d]);

/** A form the way browsers and undici write it (binary content may contain CRLF and dashes). */
function form(parts: Array<{ name: string; value: string | Buffer; filename?: string }>, boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: image/png`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Decodes with the platform's own parser, as an upstream would. */
async function platformFields(body: Buffer, contentType = CONTENT_TYPE) {
  const data = await new Request('http://x/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  }).formData();
  return Object.fromEntries(
    [...data.entries()].map(([name, value]) => [
      name,
      typeof value === 'string' ? value : `file:${value.name}:${value.size}`,
    ]),
  );
}

describe('multipart form reading', () => {
  it('reads text fields and locates file parts without copying them', () => {
    const raw = form([
      { name: 'model', value: 'dall-e-2' },
      { name: 'image', value: PNG, filename: 'cat.png' },
      { name: 'prompt', value: 'a cat, “wearing” a hat' },
      { name: 'n', value: '2' },
    ]);
    const parsed = parseMultipart(raw, CONTENT_TYPE);
    expect(parsed.fields).toEqual({ model: 'dall-e-2', prompt: 'a cat, “wearing” a hat', n: '2' });
    const image = parsed.parts.find((part) => part.name === 'image');
    expect(image).toMatchObject({ filename: 'cat.png', contentType: 'image/png' });
    expect(raw.subarray(image?.start, image?.end).equals(PNG)).toBe(true);
    expect(hasFile(parsed, ['image', 'image[]'])).toBe(true);
    expect(hasFile(parsed, ['file'])).toBe(false);
  });

  it('accepts a preamble, a quoted boundary, empty values and transport padding', () => {
    const body = Buffer.from(
      'ignored preamble\r\n--q b  \r\nContent-Disposition: form-data; name="a"\r\n\r\n\r\n' +
        '--q b\r\ncontent-disposition: form-data; name=b\r\n\r\nx\r\n--q b--',
    );
    const parsed = parseMultipart(body, 'multipart/form-data; boundary="q b"');
    expect(parsed.fields).toEqual({ a: '', b: 'x' });
  });

  it('rejects what is not a well-formed form with a 400', () => {
    const bad = (body: string, contentType = CONTENT_TYPE) => {
      try {
        parseMultipart(Buffer.from(body), contentType);
      } catch (error) {
        return error instanceof AppError ? error.status : 0;
      }
      return 200;
    };
    expect(bad('anything', 'multipart/form-data')).toBe(400);
    expect(bad('no boundary here')).toBe(400);
    expect(bad(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated`)).toBe(400);
    expect(bad(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`)).toBe(400);
    expect(bad(`--${BOUNDARY}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`)).toBe(400);
  });

  it('replaces a field in place, leaving every other byte as sent', async () => {
    const raw = form([
      { name: 'model', value: 'dall-e-2' },
      { name: 'image', value: PNG, filename: 'cat.png' },
    ]);
    const rebuilt = withField(parseMultipart(raw, CONTENT_TYPE), 'model', 'my-deployment');
    expect(rebuilt.toString('latin1')).toBe(raw.toString('latin1').replace('dall-e-2', 'my-deployment'));
    expect(await platformFields(rebuilt)).toEqual({ model: 'my-deployment', image: `file:cat.png:${PNG.length}` });
  });

  it('adds a missing field before the closing delimiter, also to an empty form', async () => {
    const raw = form([{ name: 'image', value: PNG, filename: 'cat.png' }]);
    const added = withField(parseMultipart(raw, CONTENT_TYPE), 'model', 'dall-e-2');
    expect(await platformFields(added)).toEqual({ image: `file:cat.png:${PNG.length}`, model: 'dall-e-2' });
    const empty = form([]);
    expect(await platformFields(withField(parseMultipart(empty, CONTENT_TYPE), 'model', 'm'))).toEqual({ model: 'm' });
  });

  it('reads header parameters and boundaries', () => {
    expect(headerParameters(' name="a\\"b"; filename=c.png')).toEqual({ name: 'a"b', filename: 'c.png' });
    expect(boundaryOf('Multipart/Form-Data; boundary=abc')).toBe('abc');
    expect(boundaryOf('application/json')).toBeUndefined();
    expect(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeUndefined();
  });

  it('decodes RFC 5987 file names', () => {
    const raw = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%E9%9F%B3.mp3\r\n\r\nabc\r\n--${BOUNDARY}--`,
    );
    expect(parseMultipart(raw, CONTENT_TYPE).parts[0]).toMatchObject({ name: 'file', filename: '音.mp3' });
  });
});
