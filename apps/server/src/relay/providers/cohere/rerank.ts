import { countRerankTokens } from '../../billing/metering.js';
import type { AdapterContext, Json, UpstreamCall, WholeBodyAdapter } from '../types.js';
import { upstreamObject } from '../values.js';
import { cohereHeaders, cohereUrl, isRecord, numberOr } from './common.js';

/**
 * The relay's `/v1/rerank` (Jina/Cohere-compatible: `query`, `documents`, `top_n`,
 * `return_documents`) → Cohere Rerank v2 (`POST /v2/rerank`) and back.
 *
 * - Documents go as strings: a string as it is, an object by its `text`. `top_n` and
 *   `max_tokens_per_doc` are kept. v2 has no `return_documents`: when the client asks for it,
 *   each result gets `document: {text}` from the request's own documents.
 * - The answer keeps Cohere's `id`, `results[{index, relevance_score}]` (best first) and `meta`
 *   (`billed_units.search_units`), and adds `model` and `usage {prompt_tokens, total_tokens}`,
 *   the fields the relay's rerank endpoint bills on. Cohere bills rerank by search units, not
 *   tokens: the tokens are Cohere's own count when it gives one (`meta.tokens.input_tokens`,
 *   `meta.billed_units.input_tokens`), else the query and documents counted here with the
 *   relay's tokenizer, exactly as the relay counts a rerank that reports nothing.
 */

export interface RerankRequest {
  query: string;
  texts: string[];
  returnDocuments: boolean;
}

/** The request's documents as text, or an Error naming the field. */
export function rerankRequestOf(body: Json): RerankRequest {
  if (typeof body.query !== 'string' || !body.query) throw new Error('query: a query string is required');
  const { documents } = body;
  if (!Array.isArray(documents) || documents.length === 0) {
    throw new Error('documents: a non-empty list of documents is required');
  }
  const texts = documents.map((document: unknown, index) => {
    if (typeof document === 'string') return document;
    if (isRecord(document) && typeof document.text === 'string') return document.text;
    throw new Error(`documents[${index}]: a string or an object with a text string is required`);
  });
  const returnDocuments = body.return_documents;
  if (returnDocuments !== undefined && returnDocuments !== null && typeof returnDocuments !== 'boolean') {
    throw new Error('return_documents: true or false is required');
  }
  return { query: body.query, texts, returnDocuments: returnDocuments === true };
}

export function buildRerankCall(body: Json, context: AdapterContext): UpstreamCall {
  const { texts } = rerankRequestOf(body);
  const cohere: Json = { model: context.upstreamModel, query: body.query, documents: texts };
  const topN = body.top_n;
  if (topN !== undefined && topN !== null) {
    if (!Number.isInteger(topN) || Number(topN) <= 0) throw new Error('top_n: a positive whole number is required');
    cohere.top_n = topN;
  }
  const perDocument = body.max_tokens_per_doc;
  if (Number.isInteger(perDocument) && Number(perDocument) > 0) cohere.max_tokens_per_doc = perDocument;
  return {
    url: cohereUrl(context.baseUrl, 'rerank'),
    headers: cohereHeaders(context, false),
    body: JSON.stringify(cohere),
  };
}

export function parseRerankAnswer(body: Buffer, context: AdapterContext, request?: RerankRequest): Json {
  const answer = upstreamObject(body, 'answer');
  if (!Array.isArray(answer.results)) {
    if (typeof answer.message === 'string') throw new Error(answer.message);
    throw new Error("the upstream's answer has no results list");
  }
  const results = answer.results.map((item: unknown, at) => {
    const index = isRecord(item) ? item.index : undefined;
    const score = isRecord(item) ? item.relevance_score : undefined;
    if (!Number.isInteger(index) || typeof score !== 'number') {
      throw new Error(`the upstream's results[${at}] has no index and relevance_score`);
    }
    const text = request?.returnDocuments ? request.texts[index as number] : undefined;
    return { index, relevance_score: score, ...(text !== undefined ? { document: { text } } : {}) };
  });
  const meta = isRecord(answer.meta) ? answer.meta : undefined;
  const tokens = meta && isRecord(meta.tokens) ? meta.tokens : {};
  const billed = meta && isRecord(meta.billed_units) ? meta.billed_units : {};
  const input =
    numberOr(tokens.input_tokens) ??
    numberOr(billed.input_tokens) ??
    (request ? countRerankTokens({ query: request.query, documents: request.texts }) : undefined);
  return {
    ...(typeof answer.id === 'string' ? { id: answer.id } : {}),
    model: context.upstreamModel,
    results,
    ...(input ? { usage: { prompt_tokens: input, total_tokens: input } } : {}),
    ...(meta ? { meta } : {}),
  };
}

/** The request's documents, per exchange (the relay passes one context to build and parse). */
const requests = new WeakMap<AdapterContext, RerankRequest>();

export const cohereRerank = {
  build(body, context) {
    const call = buildRerankCall(body, context);
    requests.set(context, rerankRequestOf(body));
    return call;
  },
  parse: (body, context) => parseRerankAnswer(body, context, requests.get(context)),
} satisfies WholeBodyAdapter;
