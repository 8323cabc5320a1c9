/** The filters of reference §1.17; the channel is for administrators only. Empty means "any". */
export interface MidjourneyFilters {
  channel_id: string;
  mj_id: string;
  /** Unix **milliseconds** on `submit_time` (the table stores milliseconds); 0 = no bound. */
  start_timestamp: number;
  end_timestamp: number;
}

export interface MidjourneyListParams extends MidjourneyFilters {
  page: number;
  size: number;
  order: string;
}
