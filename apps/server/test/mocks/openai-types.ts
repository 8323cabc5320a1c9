import type { IncomingMessage } from 'node:http';

/** What the mock OpenAI upstream (openai-upstream.ts) is steered by and records. */
export interface MockBehaviour {
  /** Accepted API key; anything else gets OpenAI's 401. */
  apiKey: string;
  reply: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: object;
    completion_tokens_details?: object;
  };
  /** Answer every request with this status and OpenAI error body instead. */
  failWith?: { status: number; message: string; type?: string; code?: string };
  /** Stream: number of content chunks (the reply is split across them) and pause between them. */
  chunks: number;
  chunkDelayMs: number;
  /** Stream: leave out the usage chunk even when asked (some vendors do). */
  omitStreamUsage: boolean;
  /** Responses, images, transcripts: answer without token usage even where OpenAI reports it. */
  omitUsage: boolean;
  /** Bytes of the speech endpoint's answer, sent in `chunks` pieces. */
  speech: Buffer;
  /** Rerank: which usage field to report (Jina reports only `total_tokens`). */
  rerankUsage: 'prompt_tokens' | 'total_tokens' | 'none';
  /** A slow model: this long before anything (status, headers, body) is answered. */
  answerDelayMs?: number;
}

export interface ReceivedFile {
  field: string;
  filename: string;
  type: string;
  size: number;
}

export interface ReceivedRequest {
  path: string;
  authorization: string | undefined;
  headers: IncomingMessage['headers'];
  /** The JSON body, or the text fields of a multipart form. */
  body: Record<string, unknown>;
  /** The file parts of a multipart form. */
  files: ReceivedFile[];
  raw: Buffer;
}

export interface MockUpstream {
  url: string;
  behaviour: MockBehaviour;
  received: ReceivedRequest[];
  /** Streams that were cut by the client before the end. */
  abortedStreams: number;
  close(): Promise<void>;
}

export type MockState = Omit<MockUpstream, 'url' | 'close'>;
