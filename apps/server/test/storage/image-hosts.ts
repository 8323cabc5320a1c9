import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ListeningMock, listenMock, sendJson } from '../mocks/mock-server.js';
import { multipartForm, readWhole } from '../providers/mock-request.js';

/**
 * Local stand-ins for the image hosts, each speaking its documented API: sm.ms (API v2), Imgur
 * (API 3), Aliyun OSS (V1 header signature, signed GET URLs) and an S3-compatible bucket
 * (path-style PutObject with a SigV4 Authorization header). Each keeps what it was given and
 * serves it back by the URL it answered, so a test can follow the URL to the very bytes.
 * `behaviour.fail` makes the next uploads fail the way the host reports a failure.
 */

export interface HostBehaviour {
  fail: boolean;
}

export interface StoredUpload {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The multipart field the file came in (form uploads). */
  field?: string;
  fileName?: string;
  contentType: string;
  bytes: Buffer;
}

export type ImageHostMock = ListeningMock<HostBehaviour, StoredUpload>;

const defaults = (): HostBehaviour => ({ fail: false });

type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  whole: Awaited<ReturnType<typeof readWhole>>,
  state: { behaviour: HostBehaviour; received: StoredUpload[] },
) => unknown;

async function startHost(handler: Handler): Promise<ImageHostMock> {
  const state = { behaviour: defaults(), received: [] as StoredUpload[] };
  const server = createServer(async (request, response) => {
    const whole = await readWhole(request);
    const path = whole.path.split('?')[0] ?? '/';
    const kept = state.received.find((upload) => upload.method !== 'GET' && servedPath(upload) === path);
    if (request.method === 'GET' && kept && !whole.path.includes('Signature=')) {
      response.writeHead(200, { 'content-type': kept.contentType });
      return response.end(kept.bytes);
    }
    await handler(request, response, whole, state);
  });
  return listenMock(server, state, defaults);
}

/** Where a form upload is served: `/i/<file name>`; a PUT at its own path. */
const servedPath = (upload: StoredUpload) => (upload.fileName ? `/i/${upload.fileName}` : upload.path);

/** The file of a multipart upload, kept; undefined when the form has none under `field`. */
async function keepFormFile(
  whole: Awaited<ReturnType<typeof readWhole>>,
  request: IncomingMessage,
  field: string,
  received: StoredUpload[],
): Promise<StoredUpload | undefined> {
  const form = await multipartForm(whole.raw, whole.contentType);
  const file = form?.get(field);
  if (!(file instanceof File)) return undefined;
  const upload: StoredUpload = {
    method: whole.method,
    path: whole.path,
    headers: request.headers,
    field,
    fileName: file.name,
    contentType: file.type,
    bytes: Buffer.from(await file.arrayBuffer()),
  };
  received.push(upload);
  return upload;
}

/** sm.ms: `POST /api/v2/upload`, `Authorization: <secret>`, file `smfile`. */
export function startSmmsMock(secret: string): Promise<ImageHostMock> {
  let origin = '';
  const started = startHost(async (request, response, whole, { behaviour, received }) => {
    if (whole.method !== 'POST' || whole.path !== '/api/v2/upload') return sendJson(response, 404, {});
    if (request.headers.authorization !== secret) {
      return sendJson(response, 200, { success: false, code: 'unauthorized', message: 'Unauthorized.' });
    }
    if (behaviour.fail) {
      return sendJson(response, 200, { success: false, code: 'flood', message: 'Upload file frequency limit.' });
    }
    const upload = await keepFormFile(whole, request, 'smfile', received);
    if (!upload) return sendJson(response, 200, { success: false, code: 'error', message: 'No files were uploaded.' });
    const url = `${origin}${servedPath(upload)}`;
    const earlier = received.filter((other) => other.bytes.equals(upload.bytes));
    if (earlier.length > 1) {
      received.pop();
      const first = earlier[0] as StoredUpload;
      return sendJson(response, 200, {
        success: false,
        code: 'image_repeated',
        message: `Image upload repeated limit, this image exists at: ${origin}${servedPath(first)}`,
        images: `${origin}${servedPath(first)}`,
      });
    }
    sendJson(response, 200, { success: true, code: 'success', message: 'Upload success.', data: { url } });
  });
  return started.then((mock) => {
    origin = mock.url;
    return mock;
  });
}

/** Imgur: `POST /3/image`, `Authorization: Client-ID <id>`, file `image`. */
export function startImgurMock(clientId: string): Promise<ImageHostMock> {
  let origin = '';
  const started = startHost(async (request, response, whole, { behaviour, received }) => {
    if (whole.method !== 'POST' || whole.path !== '/3/image') return sendJson(response, 404, {});
    const refuse = (status: number, error: string) =>
      sendJson(response, status, { data: { error, request: '/3/image', method: 'POST' }, success: false, status });
    if (request.headers.authorization !== `Client-ID ${clientId}`) return refuse(403, 'Invalid client_id');
    if (behaviour.fail) return refuse(429, 'Too Many Requests');
    const upload = await keepFormFile(whole, request, 'image', received);
    if (!upload) return refuse(400, 'No image data was sent to the upload api');
    sendJson(response, 200, { data: { link: `${origin}${servedPath(upload)}` }, success: true, status: 200 });
  });
  return started.then((mock) => {
    origin = mock.url;
    return mock;
  });
}

const ossError = (response: ServerResponse, status: number, code: string, message: string) => {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
};

const hmacSha1 = (secret: string, text: string) => createHmac('sha1', secret).update(text).digest('base64');

/**
 * Aliyun OSS for one bucket, its objects at `/<object>` (the bucket's own host): PUT checks the V1
 * signature and Content-MD5; GET with `OSSAccessKeyId`, `Expires`, `Signature` checks the URL's.
 */
export function startOssMock(bucket: string, keyId: string, secret: string): Promise<ImageHostMock> {
  return startHost((request, response, whole, { behaviour, received }) => {
    const url = new URL(whole.path, 'http://oss');
    const resource = `/${bucket}${decodeURIComponent(url.pathname)}`;
    if (whole.method === 'GET') {
      const { searchParams: query } = url;
      const expected = hmacSha1(secret, `GET\n\n\n${query.get('Expires') ?? ''}\n${resource}`);
      const kept = received.find((upload) => upload.path === url.pathname);
      if (query.get('OSSAccessKeyId') !== keyId || query.get('Signature') !== expected || !kept) {
        return ossError(response, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match.');
      }
      response.writeHead(200, { 'content-type': kept.contentType });
      return response.end(kept.bytes);
    }
    if (whole.method !== 'PUT') return ossError(response, 405, 'MethodNotAllowed', 'The method is not allowed.');
    const md5 = String(request.headers['content-md5'] ?? '');
    const text = `PUT\n${md5}\n${whole.contentType}\n${String(request.headers.date ?? '')}\n${resource}`;
    if (request.headers.authorization !== `OSS ${keyId}:${hmacSha1(secret, text)}`) {
      return ossError(response, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match.');
    }
    if (createHash('md5').update(whole.raw).digest('base64') !== md5) {
      return ossError(response, 400, 'InvalidDigest', 'The Content-MD5 you specified is not valid.');
    }
    if (behaviour.fail) return ossError(response, 403, 'AccessDenied', 'The bucket you access does not belong to you.');
    received.push({
      method: 'PUT',
      path: url.pathname,
      headers: request.headers,
      contentType: whole.contentType,
      bytes: whole.raw,
    });
    response.writeHead(200, { etag: `"${createHash('md5').update(whole.raw).digest('hex')}"` });
    response.end();
  });
}

/**
 * An S3-compatible bucket, path-style: `PUT /<bucket>/<key>` needs a SigV4 `Authorization` header
 * (`AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/s3/aws4_request, SignedHeaders=…,
 * Signature=…`) and `x-amz-date`; the object's `Expires` and `Content-Type` headers are kept.
 */
export function startS3Mock(bucket: string, keyId: string): Promise<ImageHostMock> {
  return startHost((request, response, whole, { behaviour, received }) => {
    const s3Error = (status: number, code: string, message: string) => ossError(response, status, code, message);
    const path = whole.path.split('?')[0] ?? '/';
    if (whole.method !== 'PUT' || !path.startsWith(`/${bucket}/`)) {
      return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    }
    const authorization = String(request.headers.authorization ?? '');
    const signed = new RegExp(
      `^AWS4-HMAC-SHA256 Credential=${keyId}/\\d{8}/[\\w-]+/s3/aws4_request, ?SignedHeaders=[\\w;-]+, ?Signature=[0-9a-f]{64}$`,
    );
    if (!signed.test(authorization) || !request.headers['x-amz-date']) {
      return s3Error(403, 'AccessDenied', 'Access Denied');
    }
    if (behaviour.fail) return s3Error(403, 'AccessDenied', 'Access Denied');
    received.push({ method: 'PUT', path, headers: request.headers, contentType: whole.contentType, bytes: whole.raw });
    response.writeHead(200, { etag: `"${createHash('md5').update(whole.raw).digest('hex')}"` });
    response.end();
  });
}
