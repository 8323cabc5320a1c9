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

  constructor(private readonly maxEventChars = 4 * 1024 * 1024) {}

  /** Returns the events completed by this chunk. */
  push(chunk: Uint8Array): string[] {
    this.buffered += this.decoder.decode(chunk, { stream: true });
    return this.drain();
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
    const separator = /\r?\n\r?\n/g;
    // A separator may straddle the previous end (`\r\n\r` + `\n`): look back three characters.
    separator.lastIndex = Math.max(0, this.scanned - 3);
    let start = 0;
    for (let match = separator.exec(this.buffered); match; match = separator.exec(this.buffered)) {
      events.push(this.buffered.slice(start, match.index));
      start = match.index + match[0].length;
    }
    if (start > 0) this.buffered = this.buffered.slice(start);
    this.scanned = this.buffered.length;
    if (this.buffered.length > this.maxEventChars) {
      this.buffered = '';
      this.scanned = 0;
      throw new Error('upstream sent a stream event larger than the limit');
    }
    return events;
  }
}

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
