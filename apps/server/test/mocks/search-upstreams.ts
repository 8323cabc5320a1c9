import { createServer, type IncomingMessage } from 'node:http';
import { type ListeningMock, listenMock, sendJson } from './mock-server.js';

/**
 * Local stand-ins for the web searchers of `#search`, speaking their documented wire formats:
 * SearXNG's search API (`GET /search?q=…&format=json` → `{query, number_of_results, results:
 * [{url, title, content, engine, …}], answers, …}`) and Tavily's (`POST /search` with a bearer key
 * and `{query, max_results}` → `{query, answer, images, results: [{title, url, content, score}],
 * response_time}`; errors `{detail: {error}}`).
 */
export interface FoundPage {
  title: string;
  url: string;
  content: string;
}

export interface SearchBehaviour {
  pages: FoundPage[];
  /** Answer every search with this status (SearXNG: an empty body, Tavily: its error body). */
  failWith?: number;
}

export interface SearchRequest {
  method: string;
  /** The path with its query string. */
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

export type SearchMock = ListeningMock<SearchBehaviour, SearchRequest>;

export const SEARCH_PAGES: FoundPage[] = [
  { title: 'Paris weather', url: 'https://weather.example/paris', content: 'Sunny, 24 °C in Paris today.' },
  { title: 'Météo Paris', url: 'https://meteo.example/paris', content: 'Ciel dégagé sur Paris.' },
];

const defaults = (): SearchBehaviour => ({ pages: SEARCH_PAGES });

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

export async function startSearxngMock(): Promise<SearchMock> {
  const state = { behaviour: defaults(), received: [] as SearchRequest[] };
  const server = createServer((request, response) => {
    state.received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
      body: undefined,
    });
    const url = new URL(request.url ?? '/', 'http://searxng');
    if (state.behaviour.failWith) {
      response.writeHead(state.behaviour.failWith).end();
      return;
    }
    // SearXNG refuses formats its settings do not list (only html by default) with a 403.
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      response.writeHead(403).end();
      return;
    }
    const results = state.behaviour.pages.map((page, index) => ({
      ...page,
      engine: 'duckduckgo',
      engines: ['duckduckgo'],
      positions: [index + 1],
      score: 1 / (index + 1),
      category: 'general',
      parsed_url: ['https', new URL(page.url).host, new URL(page.url).pathname, '', '', ''],
    }));
    sendJson(response, 200, {
      query: url.searchParams.get('q'),
      number_of_results: results.length,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });
  return listenMock(server, state, defaults);
}

export async function startTavilyMock(apiKey: string): Promise<SearchMock> {
  const state = { behaviour: defaults(), received: [] as SearchRequest[] };
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      state.received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      if (request.headers.authorization !== `Bearer ${apiKey}`) {
        sendJson(response, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
        return;
      }
      if (state.behaviour.failWith) {
        sendJson(response, state.behaviour.failWith, { detail: { error: 'Internal error' } });
        return;
      }
      const query = body?.query;
      if (request.method !== 'POST' || request.url !== '/search' || typeof query !== 'string') {
        sendJson(response, 400, { detail: { error: 'Query is missing.' } });
        return;
      }
      const limit = typeof body?.max_results === 'number' ? body.max_results : 5;
      sendJson(response, 200, {
        query,
        follow_up_questions: null,
        answer: null,
        images: [],
        results: state.behaviour.pages
          .slice(0, limit)
          .map((page, index) => ({ ...page, score: 0.9 - index / 10, raw_content: null })),
        response_time: 0.42,
      });
    });
  });
  return listenMock(server, state, defaults);
}
