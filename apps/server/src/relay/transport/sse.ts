/**
 * Incremental server-sent-events splitting: bytes in, complete events out, each without its blank
 * line. Only the current unfinished event is held, up to `maxEventChars`, so memory stays bounded
 * however long the stream runs; a scan never starts over from the beginning of the held text, so
 * an event of several megabytes (Gemini streams generated images inline) costs linear time.
 */
export class SseSplitter {
  private buffered = '';
  /** How much of `buffered` has been searched for a separator already. */
  private scanned = 0;
  private readonly decoder = new TextDecoder();
  /** The decoder holds no bytes of an unfinished character, and has seen the stream's start. */
  private decoderIdle = false;

  constructor(private readonly maxEventChars = 4 * 1024 * 1024) {}

  /** Returns the events completed by this chunk. */
  push(chunk: Uint8Array): string[] {
    this.buffered += this.decoded(chunk);
    return this.drain();
  }

  /**
   * A chunk that ends on an ASCII byte, after an idle decoder, is decoded on its own by Buffer's
   * UTF-8 decoding, which replaces bad bytes as TextDecoder does and costs less per chunk. The first
   * chunk goes through the decoder, which drops a byte-order mark there.
   */
  private decoded(chunk: Uint8Array): string {
    const endsWhole = (chunk[chunk.length - 1] ?? 0x80) < 0x80;
    if (this.decoderIdle && endsWhole && Buffer.isBuffer(chunk)) return chunk.toString('utf8');
    this.decoderIdle = endsWhole;
    return this.decoder.decode(chunk, { stream: true });
  }

  /** No unfinished event is held. */
  isEmpty(): boolean {
    return this.buffered === '';
  }

  /** Whatever is left when the upstream closes (an event without the final blank line). */
  finish(): string[] {
    this.buffered += this.decoder.decode();
    const events = this.drain();
    const rest = this.buffered.trim();
    this.buffered = '';
    this.scanned = 0;
    if (rest) events.push(rest);
    return events;
  }

  private drain(): string[] {
    const events: string[] = [];
    const text = this.buffered;
    // A separator may straddle the previous end (`\r\n\r` + `\n`): look back three characters.
    let from = Math.max(0, this.scanned - 3);
    let start = 0;
    for (let lineFeed = text.indexOf('\n', from); lineFeed >= 0; lineFeed = text.indexOf('\n', from)) {
      // A separator is `\r?\n\r?\n`, found at its first line feed; its `\r` is taken when the search
      // had not passed it yet, as a regular expression's leftmost match would.
      const after = text.charCodeAt(lineFeed + 1);
      const end =
        after === LINE_FEED
          ? lineFeed + 2
          : after === RETURN && text.charCodeAt(lineFeed + 2) === LINE_FEED
            ? lineFeed + 3
            : -1;
      if (end < 0) {
        from = lineFeed + 1;
        continue;
      }
      const separator = lineFeed > from && text.charCodeAt(lineFeed - 1) === RETURN ? lineFeed - 1 : lineFeed;
      events.push(text.slice(start, separator));
      start = from = end;
    }
    if (start > 0) this.buffered = text.slice(start);
    this.scanned = this.buffered.length;
    if (this.buffered.length > this.maxEventChars) {
      this.buffered = '';
      this.scanned = 0;
      throw new Error('upstream sent a stream event larger than the limit');
    }
    return events;
  }
}

const LINE_FEED = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;

/** The joined `data:` payload of one event, or undefined for comments and other fields only. */
export function eventData(event: string): string | undefined {
  // Nearly every event is one `data:` line: read without splitting (it runs once per streamed event).
  if (event.startsWith('data:') && !event.includes('\n')) {
    return event.slice(event.charCodeAt(5) === SPACE ? 6 : 5);
  }
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}
