import { LogType } from '@one-hub/contracts';
import type { NewLogRow } from '../../src/platform/db/index.js';
import { daysAgo } from './days.js';

/** A consume log row `days` days back, of 10 prompt and 20 completion tokens, as the dashboard's roll-up counts it. */
export function consumeRow(userId: number, days: number, model: string, quota: number, channelId = 1): NewLogRow {
  return {
    user_id: userId,
    username: 'someone',
    created_at: daysAgo(days).at,
    type: LogType.consume,
    content: '',
    quota,
    source_ip: '',
    token_name: '',
    model_name: model,
    prompt_tokens: 10,
    completion_tokens: 20,
    channel_id: channelId,
    request_time: 300,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
  };
}
