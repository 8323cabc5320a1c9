import { AppError } from '../../platform/errors.js';

/**
 * A multipart/form-data reader (RFC 7578) that keeps the body as received: the relay forwards the
 * client's bytes unchanged and only needs the small text fields (model, n, size…) for routing and
 * billing. Parts are located by offsets into the raw buffer, so a file is never copied.
 */
export interface MultipartPart {
  name: string;
  /** Set for file parts (even when empty); absent for text fields. */
  filename?: string;
  contentType?: string;
  /** The part's content is `raw.subarray(start, end)`. */
  start: number;
  end: number;
}

export interface MultipartForm {
  raw: Buffer;
  /** The request's Content-Type header, boundary included. */
  contentType: string;
  boundary: string;
  parts: MultipartPart[];
  /** Text fields by name; a repeated name keeps its first value. */
  fields: Record<string, string>;
  /** Where the CRLF before the closing delimiter starts: new parts go here. */
  closeAt: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_PARTS = 1000;
const MAX_HEADER_BYTES = 16 * 1024;

const malformed = (why: string) => AppError.badRequest(`multipart body is malformed: ${why}`);

/** The boundary parameter of a multipart Content-Type, or undefined when it has none. */
export function boundaryOf(contentType: string): string | undefined {
  const [type = '', ...rest] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  const boundary = headerParameters(rest.join(';')).boundary;
  return boundary && boundary.length <= 70 ? boundary : undefined;
}

/** Parameters of a header value such as `form-data; name="a"; filename="b.png"` (names lower-cased). */
export function headerParameters(text: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  let index = 0;
  while (index < text.length) {
    while (index < text.length && (text[index] === ';' || text[index] === ' ' || text[index] === '\t')) index++;
    const equals = text.indexOf('=', index);
    if (equals < 0) break;
    const key = text.slice(index, equals).trim().toLowerCase();
    index = equals + 1;
    let value = '';
    if (text[index] === '"') {
      index++;
      while (index < text.length && text[index] !== '"') {
        if (text[index] === '\\' && index + 1 < text.length) index++;
        value += text[index];
        index++;
      }
      index++;
    } else {
      const end = text.indexOf(';', index);
      value = text.slice(index, end < 0 ? text.length : end).trim();
      index = end < 0 ? text.length : end;
    }
    if (key && !(key in parameters)) parameters[key] = value;
  }
  return parameters;
}

function extendedFilename(value: string): string {
  // RFC 5987: charset'language'percent-encoded
  const encoded = value.slice(value.indexOf("'", value.indexOf("'") + 1) + 1);
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function readPartHeaders(block: string): Omit<MultipartPart, 'start' | 'end'> {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw malformed('a part has no form-data disposition');
  const parameters = headerParameters(disposition.slice(disposition.indexOf(';') + 1));
  if (parameters.name === undefined) throw malformed('a part has no name');
  const filename =
    parameters['filename*'] !== undefined ? extendedFilename(parameters['filename*']) : parameters.filename;
  return {
    name: parameters.name,
    ...(filename !== undefined ? { filename } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
}

/** Finds the first delimiter: at the very start, or after a preamble ending in CRLF. */
function firstDelimiter(raw: Buffer, dashBoundary: Buffer): number {
  if (raw.subarray(0, dashBoundary.length).equals(dashBoundary)) return 0;
  const found = raw.indexOf(Buffer.concat([CRLF, dashBoundary]));
  if (found < 0) throw malformed('the boundary does not occur in the body');
  return found + 2;
}

/** Reads a whole multipart body; throws a 400 when it is not well formed. */
export function parseMultipart(raw: Buffer, contentType: string): MultipartForm {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw AppError.badRequest('Content-Type must be multipart/form-data with a boundary');
  const dashBoundary = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.concat([CRLF, dashBoundary]);
  const parts: MultipartPart[] = [];
  let at = firstDelimiter(raw, dashBoundary);
  for (;;) {
    let cursor = at + dashBoundary.length;
    if (raw[cursor] === 0x2d && raw[cursor + 1] === 0x2d) {
      const fields: Record<string, string> = {};
      for (const part of parts) {
        if (part.filename === undefined && !(part.name in fields)) {
          fields[part.name] = raw.subarray(part.start, part.end).toString('utf8');
        }
      }
      return { raw, contentType, boundary, parts, fields, closeAt: at === 0 ? 0 : at - 2 };
    }
    while (raw[cursor] === 0x20 || raw[cursor] === 0x09) cursor++;
    if (raw[cursor] !== 0x0d || raw[cursor + 1] !== 0x0a) throw malformed('a delimiter line does not end in CRLF');
    cursor += 2;
    if (parts.length >= MAX_PARTS) throw malformed(`more than ${MAX_PARTS} parts`);
    const emptyHeaders = raw[cursor] === 0x0d && raw[cursor + 1] === 0x0a;
    const headerEnd = emptyHeaders ? cursor : raw.indexOf(HEADER_END, cursor);
    if (headerEnd < 0 || headerEnd - cursor > MAX_HEADER_BYTES) throw malformed('part headers do not end');
    const headers = readPartHeaders(raw.subarray(cursor, headerEnd).toString('utf8'));
    const start = emptyHeaders ? cursor + 2 : headerEnd + 4;
    const end = raw.indexOf(delimiter, start);
    if (end < 0) throw malformed('the closing boundary is missing');
    parts.push({ ...headers, start, end });
    at = end + 2;
  }
}

/**
 * The body with text field `name` set to `value`: the first such part's content is replaced, or a
 * new part is added before the closing delimiter. Every other byte stays as the client sent it.
 */
export function withField(form: MultipartForm, name: string, value: string): Buffer {
  if (/[\r\n"]/.test(name) || /[\r\n]/.test(value)) throw new Error('multipart field names and values are one line');
  const existing = form.parts.find((part) => part.name === name && part.filename === undefined);
  const encoded = Buffer.from(value, 'utf8');
  if (existing) {
    return Buffer.concat([form.raw.subarray(0, existing.start), encoded, form.raw.subarray(existing.end)]);
  }
  const added = Buffer.from(`--${form.boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`);
  if (form.closeAt === 0) {
    // No parts at all: the body starts with the closing delimiter.
    return Buffer.concat([added, encoded, CRLF, form.raw]);
  }
  return Buffer.concat([form.raw.subarray(0, form.closeAt), CRLF, added, encoded, form.raw.subarray(form.closeAt)]);
}

/** Whether the form has a file part under one of `names`. */
export function hasFile(form: MultipartForm, names: readonly string[]): boolean {
  return form.parts.some((part) => part.filename !== undefined && names.includes(part.name));
}
