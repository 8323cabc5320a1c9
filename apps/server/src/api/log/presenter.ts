import type { LogChannelView, LogMetadata, LogView } from '@one-hub/contracts';
import { type ExportColumn, fieldColumns } from '../../http/export-stream.js';
import { type LogRow, toBoolean } from '../../platform/db/index.js';

/** The metadata column as an object; anything that is not a JSON object (old or damaged rows) reads as {}. */
export function parseMetadata(text: string | null | undefined): LogMetadata {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as LogMetadata;
  } catch {
    // A row written by an older or foreign system: show it without metadata rather than fail the page.
  }
  return {};
}

/**
 * One log row as it leaves the server. Numbers are forced to numbers and booleans to booleans
 * because the three databases return bigint and boolean columns differently.
 */
export function toLogView(row: LogRow, channel: LogChannelView | null): LogView {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    created_at: Number(row.created_at),
    type: Number(row.type),
    content: row.content,
    username: row.username,
    token_id: Number(row.token_id),
    token_name: row.token_name,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    channel_id: Number(row.channel_id),
    channel,
    request_time: Number(row.request_time),
    is_stream: toBoolean(row.is_stream),
    source_ip: row.source_ip,
    request_id: row.request_id,
    metadata: parseMetadata(row.metadata),
  };
}

/**
 * The CSV columns of a log export: the list's fields under the list's names. The channel is its
 * name (empty when the list shows none) and the metadata its JSON text, so each cell is one value.
 */
export const LOG_EXPORT_COLUMNS: readonly ExportColumn<LogView>[] = [
  ...fieldColumns<LogView>([
    'id',
    'created_at',
    'type',
    'user_id',
    'username',
    'token_id',
    'token_name',
    'model_name',
    'quota',
    'prompt_tokens',
    'completion_tokens',
    'channel_id',
  ]),
  { name: 'channel', value: (log) => log.channel?.name ?? '' },
  ...fieldColumns<LogView>(['request_time', 'is_stream', 'source_ip', 'request_id', 'content', 'metadata']),
];
