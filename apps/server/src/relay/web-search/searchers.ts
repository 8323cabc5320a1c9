import { isRecord } from '@one-hub/contracts';
import { readBody } from '../../platform/read-body.js';
import type { UpstreamClient } from '../transport/executor.js';

/**
 * The web searchers of `#search` (reference search.searxng.url, search.tavily.key): a SearXNG
 * instance's JSON API and Tavily's search API, each asked through the relay's executor.
 */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface Searcher {
  /** For the server log: which searcher failed. */
  name: string;
  /** Throws when the searcher cannot answer (unreachable, an error status, a body it cannot read). */
  search(query: string): Promise<SearchResult[]>;
}

/** Results put into a message: SearXNG gives twenty or more, each one costs the user prompt tokens. */
export const MAX_RESULTS = 8;
const MAX_SNIPPET = 600;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const text = (value: unknown, limit = 300): string => (typeof value === 'string' ? value.trim().slice(0, limit) : '');

/** The `results` both APIs answer with (`{title, url, content}`), those without a URL left out. */
function resultsOf(body: unknown): SearchResult[] {
  const list = isRecord(body) && Array.isArray(body.results) ? body.results : undefined;
  if (!list) throw new Error('the answer has no results list');
  return list
    .filter(isRecord)
    .map((item) => ({ title: text(item.title), url: text(item.url, 2000), snippet: text(item.content, MAX_SNIPPET) }))
    .filter((result) => result.url !== '')
    .slice(0, MAX_RESULTS);
}

async function askJson(
  upstream: UpstreamClient,
  request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  errorOf: (status: number, body: unknown) => string,
): Promise<unknown> {
  const response = await upstream.send({ ...request, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const raw = await readBody(response.body, MAX_ANSWER_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    body = undefined;
  }
  if (response.status < 200 || response.status > 299) throw new Error(errorOf(response.status, body));
  if (body === undefined) throw new Error('the answer is not JSON');
  return body;
}

/**
 * SearXNG: a GET of the configured URL with the query, URL-encoded, in place of `{query}`, and
 * `format=json` added when the URL does not choose a format (the instance must allow JSON in its
 * `search.formats`, or it answers 403).
 */
export function searxngSearcher(upstream: UpstreamClient, template: string): Searcher {
  return {
    name: 'SearXNG',
    async search(query) {
      let url = template.replaceAll('{query}', encodeURIComponent(query));
      if (!/[?&]format=/.test(url)) url += `${url.includes('?') ? '&' : '?'}format=json`;
      const body = await askJson(
        upstream,
        { url, method: 'GET', headers: { accept: 'application/json' } },
        (status) => `SearXNG answered HTTP ${status}${status === 403 ? ' (is the json format enabled?)' : ''}`,
      );
      return resultsOf(body);
    },
  };
}

/** Tavily: `POST <base>/search` with the key as a bearer token and `{query, max_results}`. */
export function tavilySearcher(upstream: UpstreamClient, key: string, apiBase: string): Searcher {
  return {
    name: 'Tavily',
    async search(query) {
      const body = await askJson(
        upstream,
        {
          url: `${apiBase.replace(/\/+$/, '')}/search`,
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query, max_results: MAX_RESULTS }),
        },
        (status, answer) => {
          const detail = isRecord(answer) && isRecord(answer.detail) ? text(answer.detail.error, 200) : '';
          return `Tavily answered HTTP ${status}${detail ? `: ${detail}` : ''}`;
        },
      );
      return resultsOf(body);
    },
  };
}

/**
 * Asks the searchers in order (SearXNG first when both are set) until one answers; each failure is
 * handed to `onFailure`. Undefined when none answers.
 */
export async function searchWith(
  searchers: readonly Searcher[],
  query: string,
  onFailure: (searcher: Searcher, error: unknown) => void,
): Promise<SearchResult[] | undefined> {
  for (const searcher of searchers) {
    try {
      return await searcher.search(query);
    } catch (error) {
      onFailure(searcher, error);
    }
  }
  return undefined;
}
