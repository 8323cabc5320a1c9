import { afterEach, describe, expect, it, vi } from 'vitest';

// The client reaches the i18n instance for its fallback messages; a fake translator is enough here.
vi.mock('../i18n/index.js', () => ({ i18n: { t: (key: string) => key } }));

const { ApiError } = await import('./api.js');
const { createEventParser, postEventStream } = await import('./eventStream.js');

describe('event stream parser', () => {
  it('answers each event once its blank line arrives, whatever the chunking', () => {
    const text = 'event: message\ndata: {"type":"result"}\n\nevent: message\ndata: {"type":"done"}\n\n';
    for (const size of [1, 2, 5, 7, text.length]) {
      const parser = createEventParser();
      const events: string[] = [];
      for (let start = 0; start < text.length; start += size)
        events.push(...parser.push(text.slice(start, start + size)));
      events.push(...parser.end());
      expect(events).toEqual(['{"type":"result"}', '{"type":"done"}']);
    }
  });

  it('holds an event back until it is complete', () => {
    const parser = createEventParser();
    expect(parser.push('data: {"a":')).toEqual([]);
    expect(parser.push('1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual(['{"a":1}']);
  });

  it('accepts CRLF and CR line ends, a CRLF split across chunks included', () => {
    const parser = createEventParser();
    expect(parser.push('data: one\r')).toEqual([]);
    expect(parser.push('\n\r\ndata: two\r\r')).toEqual(['one']);
    expect(parser.push('\n')).toEqual(['two']);
  });

  it('joins the data lines of one event, skips comments and fields, and flushes the last event at the end', () => {
    const parser = createEventParser();
    expect(parser.push(': keep-alive\nid: 4\ndata: first\ndata:second\n\n')).toEqual(['first\nsecond']);
    expect(parser.push('data: unterminated')).toEqual([]);
    expect(parser.end()).toEqual(['unterminated']);
  });

  it('ignores events without data', () => {
    const parser = createEventParser();
    expect(parser.push('event: message\n\n\n')).toEqual([]);
  });
});

/** A fetch answering `status` with `chunks` streamed one by one. */
function answer(status: number, chunks: string[], contentType = 'text/event-stream') {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } }));
}

describe('postEventStream', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the body as JSON and hands over each event as it is read', async () => {
    const fetchMock = answer(200, ['data: {"n":1}\n', '\ndata: {"n":2}\n\n']);
    vi.stubGlobal('fetch', fetchMock);
    const events: string[] = [];
    await postEventStream('/api/sse/x', { id: 3 }, (data) => events.push(data));
    expect(events).toEqual(['{"n":1}', '{"n":2}']);
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/sse/x');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"id":3}');
  });

  it("throws the server's message when the stream is refused", async () => {
    vi.stubGlobal('fetch', answer(400, ['{"success":false,"message":"models: name at least one model"}'], 'json'));
    const failure = await postEventStream('/api/sse/x', {}, () => undefined).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as InstanceType<typeof ApiError>).status).toBe(400);
    expect((failure as Error).message).toBe('models: name at least one model');
  });

  it('answers a network error when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const failure = await postEventStream('/api/sse/x', {}, () => undefined).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof ApiError>).status).toBe(0);
  });
});
