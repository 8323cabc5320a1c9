import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

/**
 * A scrape in a cluster: the worker that got GET /api/metrics asks the primary, which gathers
 * every worker's registry (prom-client's AggregatorRegistry, over the cluster's IPC channel) and
 * answers with their sum, so one scrape shows the whole server whichever worker takes it.
 */

const SCRAPE = 'onehub:metrics-scrape';
const SCRAPED = 'onehub:metrics-scraped';
/** prom-client gives up on a silent worker after 5 s; this waits a little longer for its answer. */
const SCRAPE_TIMEOUT_MS = 7000;

interface ScrapeRequest {
  type: typeof SCRAPE;
  id: number;
}

interface ScrapeAnswer {
  type: typeof SCRAPED;
  id: number;
  text?: string;
  error?: string;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** In the primary: answers the workers' scrape requests with the metrics of all of them. */
export function answerWorkerScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<ScrapeRequest>(message, SCRAPE)) return;
    const answer = (fields: Omit<ScrapeAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...fields } satisfies ScrapeAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
let nextId = 0;
let listening = false;

/** In a worker: the whole cluster's metrics, in Prometheus text format. */
export function scrapeCluster(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: unknown) => {
      if (!isMessage<ScrapeAnswer>(message, SCRAPED)) return;
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.text !== undefined) waiting.resolve(message.text);
      else waiting.reject(new Error(`the cluster's metrics could not be gathered: ${message.error ?? 'no answer'}`));
    });
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the cluster did not answer for its metrics in time'));
    }, SCRAPE_TIMEOUT_MS);
    pending.set(id, {
      resolve: (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    process.send?.({ type: SCRAPE, id } satisfies ScrapeRequest);
  });
}
