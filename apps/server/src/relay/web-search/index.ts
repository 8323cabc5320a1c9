import type { Json } from '@one-hub/contracts';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import type { Logger } from '../../platform/logger.js';
import { modelAllowed } from '../access/admission.js';
import type { CompleteForCaller } from '../exchange/internal-call.js';
import type { Attempt, Endpoint, WebSearchStep } from '../exchange/types.js';
import type { UpstreamClient } from '../transport/executor.js';
import { citedMessageText, withText } from './citation.js';
import { lastUserText, queryFromAnswer, queryRequest } from './query.js';
import { type Searcher, searchWith, searxngSearcher, tavilySearcher } from './searchers.js';

/**
 * `#search` (reference §2.4): before a chat request whose model ends in `#search` is routed, the
 * query model (SEARCH_QUERY_MODEL, gpt-4o-mini) writes a search query from the last user message —
 * a call routed and billed like the caller's own, with a log row of its own — the searchers are
 * asked, and the last user message is rewritten with the numbered results. Whatever goes wrong on
 * the way (no text to search for, the key may not call the query model, the query call or every
 * searcher fails, nothing found) is logged as a warning and the request is answered without
 * results, as the client sent it. `X-Web-Search-Results` tells the client how many results it got.
 */
export interface WebSearchSettings {
  searxngUrl?: string;
  tavily?: { key: string; apiBase: string };
  queryModel: string;
}

export const RESULTS_HEADER = 'x-web-search-results';

/** The step, or undefined when no searcher is configured (`#search` is then refused with a 400). */
export function createWebSearch(
  settings: WebSearchSettings,
  deps: { upstream: UpstreamClient; logger: Logger; complete: CompleteForCaller },
): WebSearchStep | undefined {
  const searchers: Searcher[] = [];
  if (settings.searxngUrl) searchers.push(searxngSearcher(deps.upstream, settings.searxngUrl));
  if (settings.tavily) searchers.push(tavilySearcher(deps.upstream, settings.tavily.key, settings.tavily.apiBase));
  if (searchers.length === 0) return undefined;

  const skip = (request: RelayHttpRequest, reason: string) =>
    deps.logger.warn({ requestId: request.id, reason }, 'web search skipped: answering without search results');
  const searcherFailed = (request: RelayHttpRequest, searcher: Searcher, error: unknown) =>
    deps.logger.warn({ requestId: request.id, searcher: searcher.name, reason: reasonOf(error) }, 'web search failed');

  const searchQuery = async (
    endpoint: Endpoint,
    attempt: Attempt,
    request: RelayHttpRequest,
    reply: RelayHttpReply,
    today: string,
  ): Promise<string | undefined> => {
    const messages = attempt.input.fields.messages as Json[];
    const fields = queryRequest(settings.queryModel, messages, today);
    try {
      const answer = await deps.complete(endpoint, attempt, fields, request, reply);
      const query = answer.status === 200 ? queryFromAnswer(answer.body) : undefined;
      if (!query) skip(request, `${settings.queryModel} found nothing to search for`);
      return query;
    } catch (error) {
      skip(request, `the query call to ${settings.queryModel} failed: ${reasonOf(error)}`);
      return undefined;
    }
  };

  return {
    async prepare(endpoint, attempt, request, reply) {
      tellResults(reply, 0);
      const messages = attempt.input.fields.messages as Json[];
      const userText = lastUserText(messages);
      if (userText === undefined) return skip(request, 'the last message is not a user message with text');
      if (!modelAllowed(attempt.caller, settings.queryModel)) {
        return skip(request, `the API key may not call the query model ${settings.queryModel}`);
      }
      const today = new Date().toISOString().slice(0, 10);
      const query = await searchQuery(endpoint, attempt, request, reply, today);
      if (query === undefined) return;
      const results = await searchWith(searchers, query, (searcher, error) => searcherFailed(request, searcher, error));
      if (!results) return skip(request, 'no searcher answered');
      if (results.length === 0) return skip(request, 'the search found nothing');
      const last = messages.length - 1;
      const rewritten = messages.map((message, index) =>
        index === last ? withText(message, citedMessageText(results, userText, today)) : message,
      );
      attempt.input = { ...attempt.input, fields: { ...attempt.input.fields, messages: rewritten } };
      tellResults(reply, results.length);
    },
  };
}

/** The header, unless a heartbeat has begun the answer already. */
function tellResults(reply: RelayHttpReply, count: number): void {
  if (!reply.raw.headersSent) reply.header(RESULTS_HEADER, String(count));
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
