import type { TopUserRow } from '@one-hub/contracts';
import type { GroupType, LabelUsage } from './series.js';

/**
 * The analytics tables as CSV rows (header first), under the API's field names like the server's
 * exports, with quota as the integer quota: a file for scripts and spreadsheets, not the screen's wording.
 */
type CsvRows = Array<Array<string | number>>;

export function topUsersCsv(rows: readonly TopUserRow[]): CsvRows {
  return [
    [
      'rank',
      'user_id',
      'username',
      'display_name',
      'request_count',
      'quota',
      'prompt_tokens',
      'completion_tokens',
      'request_time',
    ],
    ...rows.map((row, index) => [
      index + 1,
      row.user_id,
      row.username,
      row.display_name,
      row.request_count,
      row.quota,
      row.prompt_tokens,
      row.completion_tokens,
      row.request_time,
    ]),
  ];
}

/** One line per model, channel or owner of the breakdown, biggest first as the list shows them. */
export function breakdownCsv(groupType: GroupType, labels: readonly LabelUsage[]): CsvRows {
  return [
    [groupType, 'request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'],
    ...labels.map((entry) => [
      entry.label,
      entry.requests,
      entry.quota,
      entry.promptTokens,
      entry.completionTokens,
      entry.requestTime,
    ]),
  ];
}

/** `<table>_<from>_<to>`: the period in the name, so files of several periods do not collide. */
export function tableFileStem(table: string, from: string | undefined, to: string | undefined): string {
  return from && to ? `${table}_${from}_${to}` : table;
}
