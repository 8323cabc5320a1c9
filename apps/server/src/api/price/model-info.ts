import { type ModelInfoView, type PriceModelInfoView, type PriceView, parseModelInfoList } from '@one-hub/contracts';

/** A model-info row in the decoded form that price listings carry as `model_info`. */
export function toPriceModelInfo(info: ModelInfoView): PriceModelInfoView {
  return {
    model: info.model,
    name: info.name,
    description: info.description,
    context_length: info.context_length,
    max_tokens: info.max_tokens,
    input_modalities: parseModelInfoList(info.input_modalities),
    output_modalities: parseModelInfoList(info.output_modalities),
    tags: parseModelInfoList(info.tags),
    support_url: parseModelInfoList(info.support_url),
    created_at: info.created_at,
    updated_at: info.updated_at,
  };
}

/** Model information by model name, decoded once per listing. */
export function modelInfoByModel(infos: readonly ModelInfoView[]): Map<string, PriceModelInfoView> {
  return new Map(infos.map((info) => [info.model, toPriceModelInfo(info)]));
}

/**
 * A listed price, copied (the in-memory table is frozen and shared with the relay), with its
 * model's information when there is some; without any, the field is left out as the reference does.
 */
export function listedPrice(price: PriceView, infos: ReadonlyMap<string, PriceModelInfoView>, model = price.model) {
  const listed: PriceView = { ...price, extra_ratios: { ...price.extra_ratios } };
  const info = infos.get(model);
  if (info) listed.model_info = info;
  return listed;
}
