import type { ChannelHealthHistory, ChannelHealthView } from '@one-hub/contracts';

/**
 * What the management API reads of the relay's channel health (relay/routing/health.ts): the
 * answering process's view of each channel it routes to, so the API needs no part of the relay.
 */
export interface ChannelHealthReader {
  view(): ChannelHealthView[];
  history(channelId: number): ChannelHealthHistory;
}
