import type { DashboardRow, PeriodUsageRow, UsageRow } from '@one-hub/contracts';
import type { DatedUsage, UsageTotals } from './repo.js';

/** The Go field names the reference system's consoles read (its structs had no JSON tags). */
function toUsageRow(date: string, totals: UsageTotals): UsageRow {
  return {
    Date: date,
    RequestCount: totals.request_count,
    Quota: totals.quota,
    PromptTokens: totals.prompt_tokens,
    CompletionTokens: totals.completion_tokens,
    RequestTime: totals.request_time,
  };
}

export function toDashboardRow(usage: DatedUsage): DashboardRow {
  const row = toUsageRow(usage.date, usage);
  return {
    Date: row.Date,
    ModelName: usage.key,
    RequestCount: row.RequestCount,
    Quota: row.Quota,
    PromptTokens: row.PromptTokens,
    CompletionTokens: row.CompletionTokens,
    RequestTime: row.RequestTime,
  };
}

export function toPeriodUsageRow(date: string, channel: string, totals: UsageTotals): PeriodUsageRow {
  return { ...toUsageRow(date, totals), Channel: channel };
}
