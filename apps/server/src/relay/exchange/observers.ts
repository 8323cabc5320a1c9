import type { ClientWriter, StreamRelay } from '../transport/respond.js';
import type {
  AnswerTap,
  Attempt,
  ChannelTryWatch,
  ObservedRequest,
  RelayObserver,
  RelayRecord,
  TriedChannel,
} from './types.js';

/**
 * Several observers of the relay (metrics, traces) seen by the pipeline as one. None gives
 * undefined and one gives itself, so a server with one observer pays nothing for the combining.
 */
export function combineObservers(...candidates: Array<RelayObserver | undefined>): RelayObserver | undefined {
  const observers = candidates.filter((observer): observer is RelayObserver => observer !== undefined);
  if (observers.length <= 1) return observers[0];
  return {
    started(route: string, request?: ObservedRequest) {
      return new CombinedRecord(observers.map((observer) => observer.started(route, request)));
    },
    finished(record, status, error) {
      const { parts } = record as CombinedRecord;
      observers.forEach((observer, index) => {
        observer.finished(parts[index] as RelayRecord, status, error);
      });
    },
    upstreamFailed(channelId) {
      for (const observer of observers) observer.upstreamFailed(channelId);
    },
    channelTry(record, channel: TriedChannel) {
      const { parts } = record as CombinedRecord;
      const watches: ChannelTryWatch[] = [];
      observers.forEach((observer, index) => {
        const watch = observer.channelTry?.(parts[index] as RelayRecord, channel);
        if (watch) watches.push(watch);
      });
      return watches.length <= 1 ? watches[0] : combinedWatch(watches);
    },
    watchLogBacklog(rows) {
      for (const observer of observers) observer.watchLogBacklog(rows);
    },
  };
}

/** One record per observer; the attempt the pipeline puts on it reaches each of them. */
class CombinedRecord implements RelayRecord {
  constructor(readonly parts: RelayRecord[]) {}

  get attempt(): Attempt | undefined {
    return this.parts[0]?.attempt;
  }

  set attempt(attempt: Attempt | undefined) {
    for (const part of this.parts) part.attempt = attempt;
  }
}

function combinedWatch(watches: ChannelTryWatch[]): ChannelTryWatch {
  return {
    failed(failure) {
      for (const watch of watches) watch.failed(failure);
    },
    answered(status) {
      const taps = watches.map((watch) => watch.answered(status)).filter((tap) => tap !== undefined);
      if (taps.length <= 1) return taps[0];
      const combined: AnswerTap = {
        whole: (body) => {
          for (const tap of taps) tap.whole(body);
        },
        chunk: (data) => {
          for (const tap of taps) tap.chunk(data);
        },
      };
      return combined;
    },
    ended(outcome) {
      for (const watch of watches) watch.ended(outcome);
    },
  };
}

/**
 * The stream relay `relay`, its writes to the client shown to `tap` as well: what closes the body
 * (its end, or the message of a break) included.
 */
export function tappedRelay(relay: StreamRelay, tap: AnswerTap): StreamRelay {
  let client: ClientWriter | undefined;
  let tapped: ClientWriter | undefined;
  const shown = (text: string | undefined) => {
    if (text) tap.chunk(text);
    return text;
  };
  return {
    chunk(bytes, link) {
      // The pump hands every chunk the same link: one wrapper serves the whole stream.
      if (link !== client || !tapped) {
        client = link;
        tapped = {
          write: (data) => {
            tap.chunk(data);
            return link.write(data);
          },
        };
      }
      return relay.chunk(bytes, tapped);
    },
    end: () => shown(relay.end()) ?? '',
    fail: (message) => shown(relay.fail(message)),
  };
}
