/**
 * Incremental server-sent-events splitting: bytes in, complete events out. Only the current
 * unfinished event is held, so memory stays bounded however long the stream runs.
 */
export class SseSplitter {
  private buffered = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxEventBytes = 4 * 1024 * 1024) {}

  /** Returns the events completed by this chunk, each without its trailing blank line. */
  push(chunk: Uint8Array): string[] {
    this.buffered += this.decoder.decode(chunk, { stream: true });
    const events: string[] = [];
    for (;;) {
      const match = /\r?\n\r?\n/.exec(this.buffered);
      if (!match) break;
      events.push(this.buffered.slice(0, match.index));
      this.buffered = this.buffered.slice(match.index + match[0].length);
    }
    if (this.buffered.length > this.maxEventBytes) {
      throw new Error('upstream sent a stream event larger than the limit');
    }
    return events;
  }

  /** No unfinished event is held. */
  isEmpty(): boolean {
    return this.buffered === '';
  }

  /** Whatever is left when the upstream closes (an event without the final blank line). */
  finish(): string[] {
    const rest = (this.buffered + this.decoder.decode()).trim();
    this.buffered = '';
    return rest ? [rest] : [];
  }
}

/** The joined `data:` payload of one event, or undefined for comments and other fields only. */
export function eventData(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}
