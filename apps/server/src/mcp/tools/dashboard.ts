import { DASHBOARD_DAYS, type DashboardRow } from '@one-hub/contracts';
import { z } from 'zod';
import type { OptionService } from '../../api/option/service.js';
import type { DashboardService } from '../../api/statistics/dashboard-service.js';
import { defineTool, tidyAmount } from './tool.js';

export interface DashboardDeps {
  dashboard: Pick<DashboardService, 'dashboard'>;
  options: Pick<OptionService, 'getNumber'>;
}

const usageShape = {
  requests: z.number(),
  quota: z.number(),
  usd: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
};
const modelUsage = z.object({ model: z.string(), ...usageShape });
const dayUsage = z.object({ date: z.string(), model: z.string(), ...usageShape });

/** Each model's rows of the window summed, most quota first (then by name). */
function byModel(rows: readonly DashboardRow[], usd: (quota: number) => number): z.output<typeof modelUsage>[] {
  const totals = new Map<string, z.output<typeof modelUsage>>();
  for (const row of rows) {
    const total = totals.get(row.ModelName) ?? {
      model: row.ModelName,
      requests: 0,
      quota: 0,
      usd: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    };
    total.requests += row.RequestCount;
    total.quota += row.Quota;
    total.prompt_tokens += row.PromptTokens;
    total.completion_tokens += row.CompletionTokens;
    totals.set(row.ModelName, total);
  }
  return [...totals.values()]
    .map((total) => ({ ...total, usd: usd(total.quota) }))
    .sort((left, right) => right.quota - left.quota || left.model.localeCompare(right.model));
}

/** The user's balance and use, and the dashboard's recent days per model (its statistics roll-up). */
export function dashboardTool(deps: DashboardDeps) {
  return defineTool({
    name: 'dashboard',
    description:
      `Your account's usage: balance (quota), quota used, requests made, and the last ${DASHBOARD_DAYS} days ` +
      "(today included, in the server's time zone) per model and per day and model, in quota units and US dollars.",
    inputSchema: z.object({}),
    outputSchema: z.object({
      username: z.string(),
      group: z.string(),
      quota: z.number(),
      quota_usd: z.number(),
      used_quota: z.number(),
      used_quota_usd: z.number(),
      request_count: z.number(),
      days: z.number(),
      usage_by_model: z.array(modelUsage),
      usage_by_day: z.array(dayUsage),
    }),
    run: async (_input, user) => {
      const perUnit = deps.options.getNumber('QuotaPerUnit') || 1;
      const usd = (quota: number) => tidyAmount(quota / perUnit);
      const rows = await deps.dashboard.dashboard(user);
      return {
        username: user.username,
        group: user.group,
        quota: Number(user.quota),
        quota_usd: usd(Number(user.quota)),
        used_quota: Number(user.used_quota),
        used_quota_usd: usd(Number(user.used_quota)),
        request_count: Number(user.request_count),
        days: DASHBOARD_DAYS,
        usage_by_model: byModel(rows, usd),
        usage_by_day: rows.map((row) => ({
          date: row.Date,
          model: row.ModelName,
          requests: row.RequestCount,
          quota: row.Quota,
          usd: usd(row.Quota),
          prompt_tokens: row.PromptTokens,
          completion_tokens: row.CompletionTokens,
        })),
      };
    },
  });
}
