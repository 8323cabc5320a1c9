/**
 * Which of a channel's models have no price, as the relay decides it: the billed name (the model
 * mapping's target, unless the target starts with "+", which bills the requested name) matches
 * no stored price exactly and no wildcard price (`prefix*`) by prefix.
 */
export function unpricedModels(
  models: readonly string[],
  modelMapping: string,
  prices: ReadonlyArray<{ model: string }>,
): string[] {
  const exact = new Set(prices.map((price) => price.model));
  const prefixes = prices.filter((price) => price.model.endsWith('*')).map((price) => price.model.slice(0, -1));
  const priced = (model: string) => exact.has(model) || prefixes.some((prefix) => model.startsWith(prefix));
  const mapping = mappingOf(modelMapping);
  const unpriced = new Set<string>();
  for (const model of models) {
    // A wildcard on the channel is a pattern, not a model anyone is billed for.
    if (!model || model.includes('*')) continue;
    const billed = billedModel(model, mapping[model]);
    if (!priced(billed)) unpriced.add(billed);
  }
  return [...unpriced];
}

function billedModel(requested: string, mapped: unknown): string {
  if (typeof mapped !== 'string' || mapped === '' || mapped.startsWith('+')) return requested;
  return mapped;
}

/** The mapping being typed may not be valid JSON yet; until it is, models are taken as they are. */
function mappingOf(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
