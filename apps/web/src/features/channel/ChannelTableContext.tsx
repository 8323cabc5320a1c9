import type { ChannelHealthView, ChannelView, ProviderView } from '@one-hub/contracts';
import { createContext, useContext } from 'react';
import type { ChannelTestResult } from './channel.api.js';

/** What every row of the channel table needs from the page, without passing it through each level. */
export interface ChannelTableContextValue {
  providers: ReadonlyMap<number, ProviderView>;
  /** Results of the tests run during this visit, by channel id. */
  testResults: Readonly<Record<number, ChannelTestResult>>;
  onTestResult(id: number, result: ChannelTestResult): void;
  /** Each routed channel's health on the node that answered, by id; channels not routed are absent. */
  health: ReadonlyMap<number, ChannelHealthView>;
  onShowHealth(channel: ChannelView): void;
  selected: ReadonlySet<number>;
  toggleSelected(id: number): void;
  onEdit(channel: ChannelView): void;
  onCopy(channel: ChannelView): void;
  onDelete(channel: ChannelView): void;
  onClearTag(channel: ChannelView): void;
  onEditTag(tag: string): void;
  onTagAction(tag: string, action: 'priority' | 'deleteDisabled' | 'delete'): void;
}

export const ChannelTableContext = createContext<ChannelTableContextValue | null>(null);

export function useChannelTable(): ChannelTableContextValue {
  const value = useContext(ChannelTableContext);
  if (!value) throw new Error('useChannelTable outside the channel table');
  return value;
}
