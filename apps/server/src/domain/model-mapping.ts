/**
 * The channel's model mapping, as the relay sends and bills a request and as the price list shows
 * what a served model costs: both must agree, so there is one reading of it. A mapping to
 * `+name` sends `name` upstream but bills the model the client asked for.
 */
export function mapModel(
  channel: { model_mapping: Readonly<Record<string, string>> },
  requested: string,
): { upstreamModel: string; billedModel: string } {
  const mapped = channel.model_mapping[requested];
  if (!mapped) return { upstreamModel: requested, billedModel: requested };
  if (mapped.startsWith('+')) return { upstreamModel: mapped.slice(1), billedModel: requested };
  return { upstreamModel: mapped, billedModel: mapped };
}
