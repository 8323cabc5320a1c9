/** The filters of reference §1.17; channel and user are for administrators only. Empty means "any". */
export interface TaskFilters {
  platform: string;
  channel_id: string;
  user_id: string;
  task_id: string;
  action: string;
  status: string;
  /** Unix seconds on `submit_time`; 0 = no bound. */
  start_timestamp: number;
  end_timestamp: number;
}

export interface TaskListParams extends TaskFilters {
  page: number;
  size: number;
  order: string;
}
