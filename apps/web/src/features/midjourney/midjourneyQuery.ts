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

/**
 * The gateway's image proxy for a task's result. The console never loads `image_url` itself: the
 * proxy's host is often unreachable from browsers, and the gateway streams the picture for it.
 */
export function imageProxyUrl(mjId: string): string {
  return `/mj/image/${encodeURIComponent(mjId)}`;
}
