import type { MidjourneyListParams } from './midjourneyParams.js';

/** The query string of a list request; 0 and '' are left out, the channel only for administrators. */
export function midjourneyQuery(params: MidjourneyListParams, admin: boolean) {
  const { channel_id, start_timestamp, end_timestamp, ...rest } = params;
  return {
    ...rest,
    start_timestamp: start_timestamp || undefined,
    end_timestamp: end_timestamp || undefined,
    ...(admin ? { channel_id } : {}),
  };
}
