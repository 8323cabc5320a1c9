import { priceToUsd } from '@one-hub/contracts';
import { z } from 'zod';
import {
  type AvailableModelSources,
  type AvailableModelView,
  availableModels,
} from '../../api/price/available-models.js';
import type { PriceService } from '../../api/price/service.js';
import { AppError } from '../../platform/errors.js';
import { defineTool } from './tool.js';

export interface AvailableModelDeps {
  prices: Pick<PriceService, 'list' | 'lookup' | 'ownedBy' | 'modelInfos'>;
  sources: AvailableModelSources;
}

const groupShape = z.object({ symbol: z.string(), name: z.string(), ratio: z.number() });
const modelShape = z.object({
  model: z.string(),
  owned_by: z.string(),
  groups: z.array(z.string()),
  type: z.enum(['tokens', 'times']),
  usd_per_million_input_tokens: z.number().optional(),
  usd_per_million_output_tokens: z.number().optional(),
  usd_per_call: z.number().optional(),
});

/** A model as the tool lists it: its list price in dollars, per million tokens or per call. */
function modelEntry(model: string, view: AvailableModelView): z.output<typeof modelShape> {
  const base = { model, owned_by: view.owned_by, groups: view.groups };
  if (view.price.type === 'times') {
    return { ...base, type: 'times', usd_per_call: priceToUsd(Math.max(view.price.input, 0)).perThousand };
  }
  return {
    ...base,
    type: 'tokens',
    usd_per_million_input_tokens: priceToUsd(Math.max(view.price.input, 0)).perMillion,
    usd_per_million_output_tokens: priceToUsd(Math.max(view.price.output, 0)).perMillion,
  };
}

/** The models the user's groups may call and their prices: what `GET /api/available_model` shows them. */
export function availableModelTool(deps: AvailableModelDeps) {
  return defineTool({
    name: 'available_model',
    description:
      'Lists the models you can call through this gateway, who makes each, the user groups offering it and ' +
      'its list price in US dollars (per million input and output tokens, or per call). What a call costs ' +
      'is the list price times the ratio of the group it is billed in (listed under "groups").',
    inputSchema: z.object({
      group: z.string().max(100).optional().describe('Only the models of this group (a symbol from "groups")'),
    }),
    outputSchema: z.object({ group: z.string(), groups: z.array(groupShape), models: z.array(modelShape) }),
    run: async ({ group }, user) => {
      const [views, groups] = await Promise.all([
        availableModels(deps.prices, deps.sources, user.group),
        deps.sources.usableGroups(user.group),
      ]);
      const wanted = group?.trim();
      if (wanted && !groups.some((entry) => entry.symbol === wanted)) {
        const usable = groups.map((entry) => entry.symbol).join(', ') || 'none';
        throw AppError.badRequest(`group "${wanted}" is not one you can use; yours: ${usable}`);
      }
      const models = Object.entries(views)
        .filter(([, view]) => !wanted || view.groups.includes(wanted))
        .map(([model, view]) => modelEntry(model, view));
      return {
        group: user.group,
        groups: groups.map(({ symbol, name, ratio }) => ({ symbol, name, ratio })),
        models,
      };
    },
  });
}
